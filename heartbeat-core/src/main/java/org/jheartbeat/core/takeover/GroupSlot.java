package org.jheartbeat.core.takeover;

import org.jheartbeat.core.config.ResourceGroupDecl;

/**
 * What the {@link TakeoverMachine} knows of one resource group: its haresources declaration, its run
 * state here, whether the protocol wants it here, its failures here and on the peer, and the flags that
 * keep it out of the protocol (disputed, left unmanaged, left running by the peer's previous run). One
 * slot per group, in haresources order (the index is the one effects and events use); a reload builds
 * new slots, carrying each kept group's slot over by key. Mutable, owned by the machine's thread.
 */
final class GroupSlot {
    /** How a FAILED group failed here; {@link #toString} is how it reads in logs and {@code hb status}. */
    enum FailedHow {
        /** Its start failed (rolled back). */
        STARTING("failed to start"),
        /** It failed while running, and was stopped. */
        RUNNING("failed while running");

        private final String text;

        FailedHow(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** The group as haresources declares it. */
    final ResourceGroupDecl decl;
    /** Its run state here. */
    GroupState actual = GroupState.STOPPED;
    /** Whether the protocol wants it to run here (reconciled towards, see {@code Reconciler#want}). */
    boolean desired;
    /** A start failed here: not started here again until an operator clears it (actual FAILED). */
    boolean failedHere;
    /** The peer reported a failed start: this node runs the group if it can (offered once). */
    boolean peerFailed;
    /** The peer reported a failed stop: it may run there, so this node never starts it (unless fenced). */
    boolean peerBlocked;
    /** How a FAILED group failed here. */
    FailedHow failedWhat = FailedHow.STARTING;
    /** Being stopped after failing while running here: FAILED here once that stop succeeds (monitoring). */
    boolean failingRunning;
    /** Why the group FAILED or is BLOCKED here, for logs and the operator; empty when nothing is known. */
    String failureDetail = "";
    /** The peer's haresources defines it differently: never started, stopped if running. */
    boolean disputed;
    /**
     * Found running on both nodes when their maintenance ended: left alone here (as in maintenance)
     * until the operator stops one copy and runs {@code hb maintenance off} again.
     */
    boolean unmanaged;
    /**
     * The peer's previous run left it running (its last {@code jhb-maint} or {@code jhb-groups}) and the
     * peer has restarted: left alone here (as in maintenance) until the new run's own report says where
     * it runs.
     */
    boolean peerLeftRunning;

    GroupSlot(ResourceGroupDecl decl) {
        this.decl = decl;
    }

    /** The group's haresources key. */
    String key() {
        return decl.key();
    }

    /**
     * A copy of what is known of this group, for {@code decl} after a reload (same key). Not
     * {@link #failingRunning}: it is set only while the group is STOPPING, which a reload refuses.
     */
    GroupSlot carriedTo(ResourceGroupDecl newDecl) {
        GroupSlot s = new GroupSlot(newDecl);
        s.actual = actual;
        s.desired = desired;
        s.failedHere = failedHere;
        s.peerFailed = peerFailed;
        s.peerBlocked = peerBlocked;
        s.failedWhat = failedWhat;
        s.failureDetail = failureDetail;
        s.disputed = disputed;
        s.unmanaged = unmanaged;
        s.peerLeftRunning = peerLeftRunning;
        return s;
    }
}
