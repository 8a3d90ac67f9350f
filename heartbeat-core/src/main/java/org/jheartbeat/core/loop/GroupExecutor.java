package org.jheartbeat.core.loop;

import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.StartOutcome;

/**
 * Runs resource-group operations for the loop (implemented with the resources module's group
 * runner), off the loop thread. Operations of one group run one at a time, in submission order;
 * different groups run independently, so a takeover's starts never wait behind another group's
 * stop (or the hand-over sync that follows it).
 */
public interface GroupExecutor extends AutoCloseable {

    /**
     * Starts group {@code group} (haresources index): resources left to right; on failure what was
     * started is stopped again.
     *
     * @param reason why the takeover machine starts it
     * @return completes with how the start ended: {@link StartOutcome#STARTED}, or a failure saying
     *         whether anything of the group is left running here (a rollback stop that failed) and,
     *         in its detail, which resource failed and why. Completes exceptionally only when nothing
     *         of the group was started (the operation could not run, or failed before its first
     *         resource); the loop then takes it for {@link StartOutcome#FAILED_STOPPED}
     */
    CompletableFuture<StartResult> start(int group, GroupOpReason reason);

    /**
     * How a start ended.
     *
     * @param outcome whether the group runs, and after a failure whether part of it is left here
     * @param detail  for a failure: which resource failed and why, and what the rollback left; else empty
     */
    record StartResult(StartOutcome outcome, String detail) {
        /** The whole group runs. */
        public static final StartResult STARTED = new StartResult(StartOutcome.STARTED, "");

        public StartResult {
            java.util.Objects.requireNonNull(outcome, "outcome");
            java.util.Objects.requireNonNull(detail, "detail");
        }

        /** A failed start: {@code stillRunning} when part of the group is left running here. */
        public static StartResult failed(boolean stillRunning, String detail) {
            return new StartResult(stillRunning ? StartOutcome.FAILED_STILL_RUNNING : StartOutcome.FAILED_STOPPED,
                    detail);
        }
    }

    /**
     * Stops group {@code group}: resources right to left, with retries, then the work that hands it
     * over (a final data sync when {@code reason} {@linkplain GroupOpReason#handsOver() hands over}).
     *
     * @param reason why the takeover machine stops it
     * @return completes with {@code true} when every resource stopped, {@code false} or exceptionally when
     *         one could not be stopped (the exception's message then names it and why)
     */
    CompletableFuture<Boolean> stop(int group, GroupOpReason reason);

    /**
     * The peer left the cluster: work towards it in flight (a hand-over sync) is cancelled, so the
     * stop it belongs to completes and the takeover can start the group here. Called on the loop
     * thread: must not block.
     *
     * @param peer the node that left
     * @param how  {@code died} or {@code shut down}, for the log
     */
    void peerLost(NodeName peer, String how);

    /**
     * A configuration reload changed the haresources groups: from now on indices refer to
     * {@code groups}. Called on the loop thread while no operation is in flight, except stops of
     * groups the reload removed, which were submitted before this call and keep the definition they
     * were submitted with. Executors that keep nothing per group need not override this.
     *
     * @param groups the groups after the reload, in file order
     */
    default void regroup(java.util.List<org.jheartbeat.core.config.ResourceGroupDecl> groups) {
    }

    /** What a probe found of one group here: every resource running, some, or none. */
    enum Probe {
        RUNNING, PARTIAL, STOPPED;

        /** Whether any resource runs. */
        public boolean any() {
            return this != STOPPED;
        }

        /** The groups (by index) that {@code found} gives this answer, in order. */
        public java.util.Set<Integer> in(java.util.Map<Integer, Probe> found) {
            java.util.Set<Integer> out = new java.util.TreeSet<>();
            found.forEach((i, v) -> {
                if (v == this) {
                    out.add(i);
                }
            });
            return out;
        }
    }

    /**
     * Asks every resource of group {@code group} for its status (maintenance), after the
     * group's queued operations; starts and stops nothing.
     *
     * @return completes with what runs here, exceptionally when the status could not be learnt (the
     *         caller then decides nothing from it)
     */
    default CompletableFuture<Probe> probe(int group) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException("this executor cannot probe"));
    }

    /**
     * Probes each of {@code which} groups ({@link #probe}), together.
     *
     * @return completes with what runs of each here, by index; exceptionally when one probe failed
     */
    default CompletableFuture<java.util.Map<Integer, Probe>> probeAll(java.util.Set<Integer> which) {
        java.util.Map<Integer, CompletableFuture<Probe>> fs = new java.util.LinkedHashMap<>();
        for (int i : which) {
            fs.put(i, probe(i));
        }
        return CompletableFuture.allOf(fs.values().toArray(CompletableFuture[]::new)).thenApply(v -> {
            java.util.Map<Integer, Probe> found = new java.util.TreeMap<>();
            fs.forEach((i, f) -> found.put(i, f.join()));
            return found;
        });
    }

    /**
     * Watches (monitors) group {@code group} from now on, as after a start ({@code on}: it was adopted
     * running when its maintenance ended), or stops watching it ({@code false}: it entered
     * maintenance). Starts and stops nothing. Called on the loop thread: must not block.
     */
    default void watch(int group, boolean on) {
    }

    @Override
    void close();
}
