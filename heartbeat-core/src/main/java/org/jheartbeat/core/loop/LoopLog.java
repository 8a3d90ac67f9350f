package org.jheartbeat.core.loop;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.BiConsumer;
import org.jheartbeat.core.takeover.Effect.Level;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop's log: each line to its output (slf4j's {@code heartbeat} logger, Heartbeat's CRIT as ERROR with
 * the {@link ClusterLoop#CRIT} marker) and, but for DEBUG, to the last {@value #RECENT_EVENTS} events that
 * {@code hb status} shows. Loop thread only.
 */
final class LoopLog {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");
    /** How many recent events {@code hb status} shows. */
    static final int RECENT_EVENTS = 20;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")
            .withZone(ZoneId.systemDefault());

    private final Deque<String> recent = new ArrayDeque<>();
    /** Where lines go (tests make it throw); called under the loop's guard. */
    private BiConsumer<Level, String> output = LoopLog::toSlf4j;

    void output(BiConsumer<Level, String> output) {
        this.output = output;
    }

    /**
     * Logs {@code text} at {@code wallMillis} (ms since the epoch); a log that throws costs that line only,
     * never the action logged.
     */
    void line(Level level, String text, long wallMillis, LoopGuard guard) {
        guard.run("logging", () -> output.accept(level, text));
        if (level == Level.DEBUG) {
            return;
        }
        if (recent.size() == RECENT_EVENTS) {
            recent.removeFirst();
        }
        recent.addLast(TIME.format(Instant.ofEpochMilli(wallMillis)) + " " + (level == Level.INFO ? "" : level + ": ")
                + text);
    }

    /** The recent events, oldest first, each {@code yyyy-MM-dd HH:mm:ss.SSS [LEVEL: ]text}. */
    List<String> recent() {
        return List.copyOf(recent);
    }

    private static void toSlf4j(Level level, String text) {
        switch (level) {
            case DEBUG -> LOG.debug(text);
            case INFO -> LOG.info(text);
            case WARN -> LOG.warn(text);
            case ERROR -> LOG.error(text);
            case CRIT -> LOG.error(ClusterLoop.CRIT, text);
        }
    }
}
