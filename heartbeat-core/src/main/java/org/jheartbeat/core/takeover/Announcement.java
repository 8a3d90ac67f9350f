package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.NodeName;

/**
 * A resource-protocol message the machine wants sent to the peer. The protocol layer turns each into
 * the Heartbeat 3.0.6 message named in its doc, fields in Heartbeat's order (facts C.2).
 */
public sealed interface Announcement {

    /** {@code t=starting}. */
    record Starting() implements Announcement { }

    /** {@code t=resource rsc_hold=HELD rtype=full isstable=0|1 [info=INFO]}. */
    record Resources(ResourceSet held, boolean stable, String info) implements Announcement { }

    /** {@code t=ask_resources rsc_hold=SET info=me|other|done}. */
    record AskResources(ResourceSet set, StandbyPhase phase) implements Announcement { }

    /** {@code t=hb_takeover rsc_hold=SET}: please go standby so that I get SET (relative to me). */
    record Takeover(ResourceSet set) implements Announcement { }

    /** {@code t=shutdone st=dead}. */
    record ShutDone() implements Announcement { }

    /**
     * {@code t=jhb-grpfail grp_key=KEY grp_fail=start|stop|clear}: jheartbeat only; what happened to
     * one group here (a real Heartbeat peer ignores it).
     */
    record GroupFailed(String groupKey, GroupFailure failure) implements Announcement { }

    /** {@code t=stonith node=NODE result=OK|bad|badhost|n_stnth|unneeded}. */
    record StonithReport(NodeName node, String result) implements Announcement { }
}
