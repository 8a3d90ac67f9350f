package org.jheartbeat.core.takeover;

/**
 * Inputs of the {@link TakeoverMachine}: what the peer said (already decoded, authenticated and
 * de-duplicated), what the failure detector decided, what an operator asked, and how group
 * operations ended. Each record names the Heartbeat 3.0.6 message or event it stands for.
 */
public sealed interface TakeoverEvent {

    /** Communication is up: the peer answered {@code reqnodes} ({@code comm_now_up}). */
    record CommUp() implements TakeoverEvent { }

    /** The peer sent {@code starting}: it has just come up and asks what we hold. */
    record PeerStarting() implements TakeoverEvent { }

    /**
     * The peer sent {@code resource}.
     *
     * @param held   what it holds, relative to the peer ({@code rsc_hold})
     * @param full   {@code rtype=full}: {@code held} replaces our view; otherwise it is ORed in
     * @param stable {@code isstable=1}
     * @param info   the {@code info} field, or empty
     */
    record PeerResources(ResourceSet held, boolean full, boolean stable, String info) implements TakeoverEvent { }

    /**
     * The peer sent {@code ask_resources}.
     *
     * @param set   the groups concerned, relative to the requester ({@code rsc_hold})
     * @param phase {@code me}, {@code other} or {@code done} ({@code info})
     */
    record PeerAskResources(ResourceSet set, StandbyPhase phase) implements TakeoverEvent { }

    /**
     * The failure detector declared the peer dead ({@code node node2: is dead}).
     *
     * @param peerNeverDelaysFencing whether the peer is a Heartbeat 3.0.6 node (it sent no {@code jhb-config}
     *                               after comm up), which fences at once: then, in a race of a cut of every
     *                               link, this node always waits {@link TakeoverSettings#fenceDelayNanos}
     *                               whatever the weights, so that one of the two survives
     *                               (docs/design/stonith.md, "Fence delay")
     */
    record PeerDead(boolean peerNeverDelaysFencing) implements TakeoverEvent {
        /** A jheartbeat peer's death: it plays by the same fencing race. */
        public PeerDead() {
            this(false);
        }
    }

    /** The peer announced a clean shutdown ({@code shutdone}): its groups are released. */
    record PeerShutdown() implements TakeoverEvent { }

    /**
     * The peer, declared dead, is heard again with the same generation: a healed partition
     * ({@code Cluster node X returning after partition}). Both sides may hold the same groups.
     */
    record PeerReturned() implements TakeoverEvent { }

    /** The peer started again with a new generation ({@code Heartbeat restart on node X}). */
    record PeerRestarted() implements TakeoverEvent { }

    /** An operator (or auto-failback) asked this node to hand {@code set} (relative to us) to the peer. */
    record StandbyRequested(ResourceSet set) implements TakeoverEvent { }

    /** An operator asked this node to take {@code set} (relative to us) from the peer ({@code hb_takeover}). */
    record TakeoverRequested(ResourceSet set) implements TakeoverEvent { }

    /** Orderly shutdown of this node: release everything, then say {@code shutdone}. */
    record ShutdownRequested() implements TakeoverEvent { }

    /**
     * A group start ended.
     *
     * @param outcome whether it runs, and after a failure whether its rollback left part of it here
     * @param detail  why it failed (the resource and the agent's words, and what the rollback left), or empty
     */
    record GroupStarted(int group, StartOutcome outcome, String detail) implements TakeoverEvent {
        /** A start that ran ({@code ok}) or failed and was rolled back cleanly. */
        public GroupStarted(int group, boolean ok, String detail) {
            this(group, ok ? StartOutcome.STARTED : StartOutcome.FAILED_STOPPED, detail);
        }

        /** As {@link #GroupStarted(int, boolean, String)}, without a detail. */
        public GroupStarted(int group, boolean ok) {
            this(group, ok, "");
        }

        /** Whether the whole group runs. */
        public boolean ok() {
            return outcome == StartOutcome.STARTED;
        }
    }

    /**
     * A group stop ended. {@code ok=false} means some resource refused to stop: it may still run.
     *
     * @param detail why it failed (the resource and the agent's words), or empty
     */
    record GroupStopped(int group, boolean ok, String detail) implements TakeoverEvent {
        /** A stop that ended without a detail. */
        public GroupStopped(int group, boolean ok) {
            this(group, ok, "");
        }
    }

    /**
     * A group running here failed its monitors beyond what restarts in place may repair (the restarts
     * within the window are used up, or a restart's start failed; docs/design/resources.md,
     * "Monitoring"). The machine stops the whole group, then treats it as a failed start: FAILED
     * here and offered once to the peer (Pacemaker's {@code migration-threshold} reached). Ignored
     * unless the group is running here.
     *
     * @param group  haresources index of the group
     * @param detail which resource failed and how, for the log and {@code hb status}
     */
    record GroupFailedRunning(int group, String detail) implements TakeoverEvent { }

    /**
     * The peer (a jheartbeat node) reported a failure of one of the groups ({@code jhb-grpfail}).
     *
     * @param group   haresources index of the group
     * @param failure what happened there
     */
    record PeerGroupFailure(int group, GroupFailure failure) implements TakeoverEvent { }

    /**
     * An operator cleared failures ({@code hb cleanup [GROUP]}): failed starts here and on the peer are
     * forgotten, a group blocked here by a failed stop is stopped once more.
     *
     * @param group haresources index, or -1 for every group
     */
    record CleanupRequested(int group) implements TakeoverEvent { }

    /**
     * A fencing attempt ended.
     *
     * @param fenced whether the device confirmed the peer is powered off or reset
     * @param detail one line: the device's result, for logs and {@code hb status}
     */
    record FenceOutcome(boolean fenced, String detail) implements TakeoverEvent { }

    /**
     * The peer (a jheartbeat node) told us the run state of each of its groups ({@code jhb-groups}, sent
     * whenever one changes, sequenced): what may run there (running, starting, stopping, blocked), not
     * Heartbeat's {@code rsc_hold} bits, which cover a whole share and change only once a transition ends.
     * Between two jheartbeat nodes the machine reads its holdings from this; with a Heartbeat 3.0.6 peer
     * (which sends none) from the bits.
     *
     * @param states by group key, the state on the peer; a key it does not list is a group it does not
     *               define (it runs nowhere there); null: the peer's list was too long to send, so its
     *               groups are unknown, as with a Heartbeat peer
     */
    record PeerGroupStates(java.util.Map<String, GroupState> states) implements TakeoverEvent {
        public PeerGroupStates {
            states = states == null ? null : java.util.Map.copyOf(states);
        }
    }

    /**
     * The peer's haresources defines these groups differently from ours (jheartbeat only; the loop
     * compares the peer's {@code jhb-config} with our file): none of them may run
     * here until a later event leaves them out. Replaces the previous set; an empty set clears it.
     *
     * @param groups local group indices
     */
    record GroupsDisputed(java.util.Set<Integer> groups) implements TakeoverEvent {
        public GroupsDisputed {
            groups = java.util.Set.copyOf(groups);
        }
    }

    /**
     * Another live node sends with this node's own name (its frames carry another node UUID or a newer
     * generation than ours: a machine that started as us, e.g. with a host name taken over by a Hostname
     * resource), or it has been silent for deadtime again. While on, the machine starts no group: no
     * takeover, no failback (jheartbeat only). Groups already running stay; fencing goes on.
     *
     * @param on whether the conflict is live
     */
    record IdentityConflict(boolean on) implements TakeoverEvent { }

    /**
     * This process did not run for long enough that the peer may have declared it dead and taken its groups
     * over (a SIGSTOP, a frozen VM: a pause of about deadtime), while this node saw no partition: what it
     * reads first are the peer's frames queued meanwhile, which may be stale (jheartbeat only; Heartbeat 3.0.6
     * acts on them). {@code on}: the resynchronisation begins: no group is started and no standby request
     * accepted, so that the peer's answer to our return (its claim, {@code info=partition}, and its
     * {@code jhb-groups}) arrives first. Off: it ends; a group the peer holds, by its own report or by its
     * {@code rsc_hold} bits, is not started here.
     *
     * @param on        whether the resynchronisation begins (true) or ends (false)
     * @param peerHolds at the end, the groups (indices here) the peer's {@code jhb-groups} reports running,
     *                  starting, stopping or blocked there (empty from a Heartbeat 3.0.6 peer)
     */
    record Resync(boolean on, java.util.Set<Integer> peerHolds) implements TakeoverEvent {
        public Resync {
            peerHolds = java.util.Set.copyOf(peerHolds);
        }
    }

    /**
     * The peer's own report ({@code jhb-groups}, complete: no frame of the peer missing before it) says it runs
     * or starts {@code groups} (indices here). A group among them that runs here too runs twice; the rule both
     * nodes apply is that its preferred node keeps it (Heartbeat's rule at a healed partition: the node holding
     * foreign resources lets go), so the other node stops its copy (jheartbeat only: a Heartbeat 3.0.6 peer
     * sends no such report, and its {@code rsc_hold} claims are answered as before).
     *
     * @param groups the groups the peer reports running or starting there
     */
    record PeerGroupsRunning(java.util.Set<Integer> groups) implements TakeoverEvent {
        public PeerGroupsRunning {
            groups = java.util.Set.copyOf(groups);
        }
    }

    /** Time passed: lets the machine check its own timers (standby reply, negotiation). */
    record Tick() implements TakeoverEvent { }

    /**
     * The maintenance setting changed (an operator's {@code hb maintenance}, the peer's {@code jhb-maint},
     * or the state file at start-up). Groups that leave maintenance are reconciled from what runs: the
     * caller probed them here ({@code probed}, their indices; {@code runsHere} those with any resource
     * running here) and knows from the peer's probe which run there ({@code runsOnPeer}).
     *
     * @param setting    the new setting
     * @param probed     groups probed here just now (those leaving maintenance); others keep their state
     * @param runsHere   of {@code probed}, those with every resource running here (adopted)
     * @param partlyHere of {@code probed}, those with some but not all resources running here (started
     *                   here, which completes them, unless they run on the peer)
     * @param runsOnPeer groups the peer's latest probe found (fully or partly) running there
     */
    record MaintenanceSet(Maintenance setting, java.util.Set<Integer> probed, java.util.Set<Integer> runsHere,
                          java.util.Set<Integer> partlyHere, java.util.Set<Integer> runsOnPeer)
            implements TakeoverEvent {
        public MaintenanceSet {
            probed = java.util.Set.copyOf(probed);
            runsHere = java.util.Set.copyOf(runsHere);
            partlyHere = java.util.Set.copyOf(partlyHere);
            runsOnPeer = java.util.Set.copyOf(runsOnPeer);
        }

        /** A setting that no group leaves (nothing probed). */
        public MaintenanceSet(Maintenance setting) {
            this(setting, java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of());
        }
    }
}
