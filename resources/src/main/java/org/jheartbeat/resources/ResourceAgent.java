package org.jheartbeat.resources;

import org.jheartbeat.core.config.ResourceClass;

/**
 * One configured resource (one haresources token) that can be started, stopped and queried, as
 * Heartbeat 3.0.6 drives {@code <script> <args...> start|stop|status}. Every method blocks until
 * the underlying program finishes or its timeout expires (at most 60 s for start/stop and 20 s for
 * status in the shipped agents); call them off the cluster loop thread. Methods report failures
 * in the returned {@link AgentResult} and do not throw for operational failures.
 */
public interface ResourceAgent {
    /**
     * Acquires the resource. Idempotent: if {@link #status()} already says running, nothing is
     * run and the result is {@link AgentOutcome#OK} (Heartbeat 3.0.6 ResourceManager skips the
     * start in that case).
     *
     * @return {@link AgentOutcome#OK} or {@link AgentOutcome#FAILED}
     */
    AgentResult start();

    /**
     * Acquires a resource that {@link #status()}, asked just before on the same thread, found not
     * running: the group runner's path on a takeover, so the start does not pay for a second status
     * (Heartbeat 3.0.6 ResourceManager asks {@code status} once before each {@code start}). An agent
     * whose {@link #start()} asks status first overrides this to skip it; the default is {@link
     * #start()}.
     *
     * @return {@link AgentOutcome#OK} or {@link AgentOutcome#FAILED}
     */
    default AgentResult startKnownStopped() {
        return start();
    }

    /**
     * Releases the resource. Stopping a resource that is not running is a success.
     *
     * @return {@link AgentOutcome#OK} or {@link AgentOutcome#FAILED}
     */
    AgentResult stop();

    /**
     * Says whether the resource is held here: the per-resource check a monitor calls on an
     * interval (an OCF agent's {@code monitor}, an LSB script's {@code status}, {@code systemctl
     * is-active}).
     *
     * @return {@link AgentOutcome#RUNNING}, {@link AgentOutcome#STOPPED}, or {@link
     *         AgentOutcome#FAILED} if the status could not be determined (treat as not running)
     */
    AgentResult status();

    /**
     * Called instead of {@link #start()} when a group start finds this resource already running
     * (after a crash and restart, or a healed partition): re-assert it to the outside world without
     * restarting it. The IP agent announces its address again with gratuitous ARP; the default does
     * nothing.
     *
     * @return OK; failures are logged, never fatal
     */
    default AgentResult reassert() {
        return AgentResult.ok("already running");
    }

    /**
     * Whether this agent runs a script ({@code resource.d/} or {@code init.d/}) with LSB verbs, to
     * which Heartbeat 3.0.6's rule "a stop must succeed when already stopped" applies (its {@code
     * probably not LSB-compliant} warning names such scripts). Built-in agents say {@code false}.
     *
     * @return {@code false} unless overridden
     */
    default boolean isScript() {
        return false;
    }

    /**
     * The class this agent belongs to. After a stop that kept failing, the group runner reads a
     * {@link AgentOutcome#FAILED} status as "not held" only for {@link ResourceClass#HEARTBEAT}
     * (Heartbeat 3.0.6's text rules: no "running" means stopped); for every other class a failed
     * status keeps the resource counted as not stopped (Pacemaker never assumes a failed stop
     * stopped anything).
     *
     * @return {@link ResourceClass#HEARTBEAT} unless overridden
     */
    default ResourceClass resourceClass() {
        return ResourceClass.HEARTBEAT;
    }

    /**
     * Whether a {@link AgentOutcome#FAILED} status, asked after a stop that kept failing, may be
     * read as "not held here". True for Heartbeat-class agents (Heartbeat 3.0.6's text rules),
     * false for every other class and for the built-in drbddisk: the resource then counts as not
     * stopped and its group stays blocked here.
     *
     * @return {@code resourceClass() == HEARTBEAT} unless overridden
     */
    default boolean failedStatusMeansStopped() {
        return resourceClass() == ResourceClass.HEARTBEAT;
    }
}
