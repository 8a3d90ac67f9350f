package org.jheartbeat.resources;

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
     * Releases the resource. Stopping a resource that is not running is a success.
     *
     * @return {@link AgentOutcome#OK} or {@link AgentOutcome#FAILED}
     */
    AgentResult stop();

    /**
     * Says whether the resource is held here.
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
}
