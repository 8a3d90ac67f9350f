package org.jheartbeat.core.journal;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several sinks as one: each event goes to every sink, in order. A sink that throws (it should not:
 * {@link EventSink#record} never throws) is caught, counted and logged at its first failure, so the loop and
 * the other sinks never see it.
 */
public final class EventSinks implements EventSink {
    private static final Logger LOG = LoggerFactory.getLogger(EventSinks.class);

    private final List<String> names;
    private final List<EventSink> sinks;
    private final AtomicLongArray failures;

    /**
     * @param names how each sink is named in the log ({@code journal}, {@code alerts}), one per sink
     * @param sinks the sinks, in order
     */
    public EventSinks(List<String> names, List<EventSink> sinks) {
        if (names.size() != sinks.size()) {
            throw new IllegalArgumentException(names.size() + " names for " + sinks.size() + " sinks");
        }
        this.names = List.copyOf(names);
        this.sinks = List.copyOf(sinks);
        sinks.forEach(s -> Objects.requireNonNull(s, "sink"));
        this.failures = new AtomicLongArray(sinks.size());
    }

    @Override
    public void record(ClusterEvent event) {
        for (int i = 0; i < sinks.size(); i++) {
            try {
                sinks.get(i).record(event);
            } catch (RuntimeException e) {
                if (failures.incrementAndGet(i) == 1) {
                    LOG.error("event sink {} failed on a {} event (further failures only counted): {}",
                            names.get(i), event.kind().wire(), e.toString());
                }
            }
        }
    }

    /** How many events sink {@code name} threw on; 0 for a name not here. */
    public long failures(String name) {
        int i = names.indexOf(name);
        return i < 0 ? 0 : failures.get(i);
    }
}
