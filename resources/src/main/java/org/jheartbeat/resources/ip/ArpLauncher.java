package org.jheartbeat.resources.ip;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * Starts the first {@code arping} run of an announcement and returns once its first ARP is on the
 * wire, so an address start can return after the neighbours were told, without waiting for the
 * second that {@code arping -c 1} lingers after its probe (measured here: the probe leaves about
 * 1 ms after exec, the program exits 1000 ms later). The real one is {@link ProcArpLauncher}; tests
 * use a fake.
 */
@FunctionalInterface
public interface ArpLauncher {
    /**
     * Starts {@code argv} and waits until its first ARP was sent, the program exited, or
     * {@code maxWait} passed, whichever comes first.
     *
     * @param argv    the {@code arping} command line ({@link GratuitousArp#argv})
     * @param maxWait longest wait for the confirmation, positive
     * @return the running (or finished) program
     * @throws IOException if the program cannot be started
     */
    Launched launch(List<String> argv, Duration maxWait) throws IOException;

    /** One started {@code arping}. */
    interface Launched {
        /**
         * @return {@code true} if the first ARP was seen going out (or the program exited with 0)
         *         before the launch returned; {@code false} if that could not be confirmed in time
         */
        boolean confirmed();

        /**
         * Waits for the program to end.
         *
         * @param timeout longest wait, positive
         * @return its exit code, or -1 if it still runs after {@code timeout} (it is left running)
         * @throws InterruptedException if interrupted while waiting (the program is killed first)
         */
        int awaitExit(Duration timeout) throws InterruptedException;

        /** @return the program's standard error so far, for a log line (after {@link #awaitExit}) */
        String stderr();

        /** Kills the program (its probe is already out; it only lingers). Idempotent. */
        void kill();
    }
}
