package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.NodeName;

/**
 * Why a node's groups are moving while it is STABLE: once they settle, the machine logs one line
 * and announces its holdings with this {@code info} ({@code resource ... info=...}), as Heartbeat
 * 3.0.6's {@code hb_resource.c} does for {@code req_our_resources()} and {@code mach_down}.
 */
enum Settlement {
    /** Initial acquisition of this node's own groups. */
    REQ_OUR_RESOURCES("req_our_resources()", "Initial resource acquisition complete (req_our_resources())"),
    /** Takeover from a dead, fenced or departed peer. */
    MACH_DOWN("mach_down", "mach_down takeover complete."),
    /** Release of the peer's groups after a healed partition. */
    PARTITION("partition", "Released %s's groups after the partition healed."),
    /** Nothing moved here: the peer also holds our groups, and our holdings tell it to release them. */
    CLAIMED("audit", "Told %s which of our resource groups run here."),
    /** Groups stopped or started after the haresources comparison with the peer (disputed groups). */
    CONFIG("config", "Resource groups settled after the haresources comparison."),
    /** This node's own groups taken back from a peer that restarted and holds nothing. */
    RESTART("restart", "Initial resource acquisition complete (restart)"),
    /**
     * Our standby exchange cancelled by the peer's claim after it declared us dead: what we gave up and it
     * does not hold is ours again (the wire info of {@link #CLAIMED}: our bits say what is held).
     */
    STANDBY_CANCELLED("audit", "Resource groups settled after the cancelled standby."),
    /** Groups adopted or started when their maintenance ended. */
    MAINTENANCE("maintenance", "Resource groups settled after maintenance.");

    private final String wireInfo;
    private final String logLine;

    Settlement(String wireInfo, String logLine) {
        this.wireInfo = wireInfo;
        this.logLine = logLine;
    }

    /** The {@code info} field of the {@code resource} message. */
    String wireInfo() {
        return wireInfo;
    }

    /** Whether {@code info}, the {@code info} field of a {@code resource} message, is this settlement's. */
    boolean isInfo(String info) {
        return wireInfo.equals(info);
    }

    /** The line logged when the groups have settled. */
    String logLine(NodeName peer) {
        return logLine.contains("%s") ? String.format(logLine, peer) : logLine;
    }
}
