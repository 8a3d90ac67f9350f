package org.jheartbeat.core.takeover;

import org.jheartbeat.core.takeover.Announcement.AskResources;
import org.jheartbeat.core.takeover.Announcement.Resources;

/**
 * What this node is responsible for in Heartbeat 3.0.6's nice_failback bookkeeping: the
 * {@code i_hold_resources} bits of {@code hb_resource.c}, which {@code cl_status rscstatus} prints
 * and every {@code resource} message carries as {@code rsc_hold}. The bits follow the protocol, not
 * the groups that run: a node with no groups preferred by the other node still says {@code all}
 * after it took over from a dead peer, and a node with no groups of its own says {@code local} once
 * it has been given its (empty) share back. Heartbeat's rules, applied to what this node sends:
 * <ul>
 *   <li>taking over from a dead or departed peer ({@code takeover_from_node}, our {@code mach_down}
 *       report): both bits;</li>
 *   <li>taking our own groups at start-up ({@code req_our_resources}), or back from a peer that
 *       restarted holding nothing (jheartbeat's {@code info=restart}): the local bit; finding the
 *       peer holding them ({@code Local Resource acquisition completed. (none)}) changes nothing;</li>
 *   <li>giving a set away in the standby protocol ({@code go_standby(ME)}, our {@code info=standby}
 *       report and our {@code done}): those bits off; acquiring a set the peer gave
 *       ({@code Standby resource acquisition done}): its mirror on;</li>
 *   <li>shutting down ({@code info=shutdown}): none.</li>
 * </ul>
 * After a healed partition (where jheartbeat releases the non-preferred copy instead of restarting
 * as Heartbeat does), and in the answer to a peer that claims our groups ({@code info=audit}), the
 * bits of the group kinds that exist follow what the report says is held.
 * Pure and not thread-safe: fed by the protocol engine with every announcement before it is sent.
 */
public final class RscHold {
    private boolean haveLocalGroups;
    private boolean haveForeignGroups;
    private boolean local;
    private boolean foreign;
    /** The set of the standby exchange in progress and our side of it, from our own me/other. */
    private ResourceSet standbySet = ResourceSet.NONE;
    private boolean giving;
    private boolean taking;

    /**
     * @param haveLocalGroups   whether haresources has groups preferred by this node
     * @param haveForeignGroups whether it has groups preferred by the other node
     */
    public RscHold(boolean haveLocalGroups, boolean haveForeignGroups) {
        this.haveLocalGroups = haveLocalGroups;
        this.haveForeignGroups = haveForeignGroups;
    }

    /**
     * A reload changed the resource groups: which kinds exist now. The bits themselves follow the
     * protocol and do not change.
     */
    public void groupsChanged(boolean haveLocal, boolean haveForeign) {
        this.haveLocalGroups = haveLocal;
        this.haveForeignGroups = haveForeign;
    }

    /** The bits now, relative to this node. */
    public ResourceSet value() {
        return ResourceSet.of(local, foreign);
    }

    /**
     * Records an announcement this node is about to send and returns the one to send: a
     * {@code resource} report carries the bits as {@code rsc_hold}; anything else is returned as is.
     */
    public Announcement sent(Announcement a) {
        if (a instanceof AskResources ask) {
            onAsk(ask);
            return a;
        }
        if (!(a instanceof Resources r)) {
            return a;
        }
        switch (r.info()) {
            case "mach_down" -> {
                local = true;
                foreign = true;
            }
            // taking our own groups: at start-up, or back from a peer that restarted holding nothing
            case "req_our_resources()", "restart" -> local = true;
            case "shutdown" -> {
                local = false;
                foreign = false;
            }
            case "standby" -> {
                if (giving) {
                    clear(standbySet);
                }
            }
            // after a healed partition, or to a peer that claims our groups (audit): what is held
            case "partition", "audit" -> {
                if (haveLocalGroups) {
                    local = r.held().includesLocal();
                }
                if (haveForeignGroups) {
                    foreign = r.held().includesForeign();
                }
            }
            default -> { }
        }
        return new Resources(value(), r.stable(), r.info());
    }

    private void onAsk(AskResources ask) {
        switch (ask.phase()) {
            case ME -> {
                standbySet = ask.set();
                giving = true;
                taking = false;
            }
            case OTHER -> {
                standbySet = ask.set();
                giving = false;
                taking = true;
            }
            case DONE -> {
                if (giving) {
                    clear(ask.set());
                } else if (taking) {
                    ResourceSet got = ask.set().mirrored();
                    local |= got.includesLocal();
                    foreign |= got.includesForeign();
                }
                giving = false;
                taking = false;
            }
        }
    }

    private void clear(ResourceSet set) {
        local &= !set.includesLocal();
        foreign &= !set.includesForeign();
    }
}
