package org.jheartbeat.cli.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Consumer;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventJournal;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.journal.JournalFiles;
import org.jheartbeat.director.runtime.DirectorAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The director's event journal ({@code hb lvs daemon}): {@code lvs-CONFIGNAME.events.jsonl} in the state
 * directory, beside the cluster daemon's {@code events.jsonl}, written by this process only (two processes never
 * write one file), merged by {@code hb events}. Records real servers taken out ({@code real-down}) and put back
 * ({@code real-up}). A state directory that is missing or not writable is one WARN line: the director runs on
 * without a journal.
 */
final class LvsEvents implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LvsEvents.class);

    private final EventJournal journal;
    private final String node;
    private final Clock wall;

    private LvsEvents(EventJournal journal, String node, Clock wall) {
        this.journal = journal;
        this.node = node;
        this.wall = wall;
    }

    /**
     * Opens the journal of the director of {@code config} in {@code stateDir}.
     *
     * @param node this machine's name ({@code uname -n}), stamped on every event
     */
    static LvsEvents open(Path stateDir, Path config, String node, Clock wall) {
        EventJournal j = null;
        if (!Files.isDirectory(stateDir)) {
            LOG.warn("state directory {} is missing: the director's events (real servers down and up) are not kept",
                    stateDir);
        } else {
            try {
                j = EventJournal.open(stateDir, JournalFiles.director(config.getFileName().toString()),
                        EventJournal.DEFAULT_MAX_BYTES, EventJournal.DEFAULT_QUEUE,
                        org.jheartbeat.core.time.MonotonicClock.system());
            } catch (IOException | RuntimeException e) {
                LOG.warn("cannot open the director's event journal in {}: {}; its events are not kept", stateDir,
                        e.toString());
            }
        }
        return new LvsEvents(j, node, wall);
    }

    /** The director's listener: a real server's change becomes {@code real-down} or {@code real-up}. */
    Consumer<DirectorAction> listener() {
        return a -> {
            if (journal != null && a instanceof DirectorAction.RealChanged c) {
                journal.record(ClusterEvent.of(wall.millis(), node, c.down() ? EventKind.REAL_DOWN : EventKind.REAL_UP,
                        c.service() + "/" + c.real(), c.message()));
            }
        };
    }

    @Override
    public void close() {
        if (journal != null) {
            journal.close();
        }
    }
}
