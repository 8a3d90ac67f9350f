package org.jheartbeat.core.journal;

/**
 * Where the loop hands events. {@link #record} is called on the loop thread and must return at once:
 * no disk, no network, no lock that I/O holds; an implementation queues (bounded) and drops with a
 * count rather than wait.
 */
@FunctionalInterface
public interface EventSink {
    /** A sink that keeps nothing. */
    EventSink NONE = e -> { };

    /** Takes {@code event}; never blocks, never throws. */
    void record(ClusterEvent event);
}
