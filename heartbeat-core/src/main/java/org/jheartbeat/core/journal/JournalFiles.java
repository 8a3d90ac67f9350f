package org.jheartbeat.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A journal's two files in a directory, read without the process that writes them (a crashed daemon's
 * journal is what an admin wants): {@code NAME} (current) and {@code NAME.1} (the one before it). A line
 * that is not an event ({@link EventCodec#parse}: torn by a crash mid-write, edited, from a newer
 * version) is skipped. Events come back in sequence order, each sequence number once, so a rotation
 * between reading the two files neither loses the order nor doubles an event.
 */
public final class JournalFiles {
    /** The daemon's journal in its state directory. */
    public static final String DAEMON = "events.jsonl";
    /** How a director's journal name begins and ends: {@code lvs-CONFIGNAME.events.jsonl}. */
    private static final String DIRECTOR_PREFIX = "lvs-";
    private static final String DIRECTOR_SUFFIX = ".events.jsonl";
    /** Most bytes read from one file (each is rotated at about 1 MiB; a larger one was not written by us). */
    static final long MAX_READ_BYTES = 8L << 20;
    /** How far from the end a journal's last event is looked for at open, in bytes. */
    private static final int TAIL = 64 * 1024;

    private JournalFiles() {
    }

    /**
     * The journal of the director ({@code hb lvs daemon}) run on {@code ldirectord.cf} file {@code configName},
     * beside the daemon's in the same state directory: {@code lvs-CONFIGNAME.events.jsonl}.
     */
    public static String director(String configName) {
        return DIRECTOR_PREFIX + configName + DIRECTOR_SUFFIX;
    }

    /**
     * The journals in {@code dir}: the daemon's, then every director's, by name.
     *
     * @throws IOException when the directory cannot be listed
     */
    public static List<String> journals(Path dir) throws IOException {
        List<String> out = new ArrayList<>(List.of(DAEMON));
        try (var files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith(DIRECTOR_PREFIX) && n.endsWith(DIRECTOR_SUFFIX)).sorted()
                    .forEach(out::add);
        } catch (NoSuchFileException e) {
            return out;
        }
        return out;
    }

    /**
     * The newest {@code max} events that {@code keep} accepts, at or after {@code sinceMillis}, of every journal
     * in {@code dir} ({@link #journals}), merged by time; each journal's own order is kept.
     *
     * @throws IOException when a file exists but cannot be read
     */
    public static List<ClusterEvent> readAll(Path dir, long sinceMillis, int max,
            java.util.function.Predicate<ClusterEvent> keep) throws IOException {
        List<List<ClusterEvent>> each = new ArrayList<>();
        for (String name : journals(dir)) {
            each.add(read(dir, name, sinceMillis, Integer.MAX_VALUE).stream().filter(keep).toList());
        }
        return newest(merge(each), max);
    }

    /** The lists merged by time, each list's order kept (a list's clock that stepped back stays in its order). */
    public static List<ClusterEvent> merge(List<List<ClusterEvent>> lists) {
        int[] at = new int[lists.size()];
        List<ClusterEvent> out = new ArrayList<>();
        while (true) {
            int best = -1;
            for (int i = 0; i < lists.size(); i++) {
                if (at[i] < lists.get(i).size() && (best < 0
                        || lists.get(i).get(at[i]).wallMillis() < lists.get(best).get(at[best]).wallMillis())) {
                    best = i;
                }
            }
            if (best < 0) {
                return out;
            }
            out.add(lists.get(best).get(at[best]++));
        }
    }

    /** The last {@code max} of {@code events}. */
    public static List<ClusterEvent> newest(List<ClusterEvent> events, int max) {
        return List.copyOf(events.subList(Math.max(0, events.size() - max), events.size()));
    }

    /** The current file of journal {@code name} in {@code dir}. */
    public static Path current(Path dir, String name) {
        return dir.resolve(name);
    }

    /** The rotated file of journal {@code name} in {@code dir} ({@code NAME.1}). */
    public static Path previous(Path dir, String name) {
        return dir.resolve(name + ".1");
    }

    /**
     * The newest {@code max} events of journal {@code name} in {@code dir} whose time is at or after
     * {@code sinceMillis}, oldest first. Missing files are an empty journal.
     *
     * @param sinceMillis ms since the epoch; {@code Long.MIN_VALUE} for all
     * @param max         most events returned, ≥ 0
     * @throws IOException when a file exists but cannot be read (permission: the message names the file)
     */
    public static List<ClusterEvent> read(Path dir, String name, long sinceMillis, int max) throws IOException {
        TreeMap<Long, ClusterEvent> bySeq = new TreeMap<>();
        List<ClusterEvent> unnumbered = new ArrayList<>();
        for (Path f : List.of(previous(dir, name), current(dir, name))) {
            for (ClusterEvent e : events(f)) {
                if (e.wallMillis() < sinceMillis) {
                    continue;
                }
                if (e.seq() > 0) {
                    bySeq.putIfAbsent(e.seq(), e);
                } else {
                    unnumbered.add(e);
                }
            }
        }
        Deque<ClusterEvent> newest = new ArrayDeque<>();
        for (ClusterEvent e : concat(unnumbered, bySeq.values())) {
            newest.addLast(e);
            if (newest.size() > max) {
                newest.removeFirst();
            }
        }
        return List.copyOf(newest);
    }

    private static List<ClusterEvent> concat(List<ClusterEvent> a, java.util.Collection<ClusterEvent> b) {
        List<ClusterEvent> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Every event in file {@code f}, in file order; none when it is missing. */
    static List<ClusterEvent> events(Path f) throws IOException {
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            long from = Math.max(0, size - MAX_READ_BYTES);
            ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
            while (buf.hasRemaining() && ch.read(buf, from + buf.position()) > 0) {
                // read until the size seen at open
            }
            bytes = buf.array();
            if (from > 0) {
                // started mid-file: the first (partial) line is not an event
                int nl = indexOf(bytes, 0);
                bytes = nl < 0 ? new byte[0] : java.util.Arrays.copyOfRange(bytes, nl + 1, buf.position());
            } else {
                bytes = java.util.Arrays.copyOf(bytes, buf.position());
            }
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<ClusterEvent> out = new ArrayList<>();
        int start = 0;
        while (start < bytes.length) {
            int nl = indexOf(bytes, start);
            int end = nl < 0 ? bytes.length : nl;
            if (end - start <= EventCodec.MAX_LINE) {
                EventCodec.parse(new String(bytes, start, end - start, StandardCharsets.UTF_8)).ifPresent(out::add);
            }
            start = end + 1;
        }
        return out;
    }

    /**
     * The sequence number of the last event in journal {@code name}: the last line of the current file that
     * is an event, else of the rotated one; 0 for an empty journal.
     *
     * @throws IOException when a file exists but cannot be read
     */
    static long lastSeq(Path dir, String name) throws IOException {
        for (Path f : List.of(current(dir, name), previous(dir, name))) {
            Optional<Long> seq = lastSeqIn(f);
            if (seq.isPresent()) {
                return seq.get();
            }
        }
        return 0;
    }

    private static Optional<Long> lastSeqIn(Path f) throws IOException {
        if (!Files.exists(f)) {
            return Optional.empty();
        }
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            long size = ch.size();
            long from = Math.max(0, size - TAIL);
            ByteBuffer buf = ByteBuffer.allocate((int) (size - from));
            while (buf.hasRemaining() && ch.read(buf, from + buf.position()) > 0) {
                // read the tail
            }
            String[] lines = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).split("\n");
            for (int i = lines.length - 1; i >= 0; i--) {
                Optional<ClusterEvent> e = EventCodec.parse(lines[i]);
                if (e.isPresent() && e.get().seq() > 0) {
                    return Optional.of(e.get().seq());
                }
            }
            return Optional.empty();
        }
    }

    private static int indexOf(byte[] b, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
