package org.jheartbeat.cli.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventCodec;
import org.jheartbeat.core.journal.JournalFiles;

/**
 * Collects one node's part of an {@code hb report} into a directory {@code NODE/}: {@code events.jsonl}
 * (the event journal's events in the window, read from the state directory with
 * {@link JournalFiles}, without the daemon, so a dead daemon's journal is collected too; and each director's
 * {@code lvs-NAME.events.jsonl}), {@code logs/} (ha.cf's logfile and debugfile lines in the
 * window, with their {@code .1}; {@code journalctl -t jheartbeat} where journald runs), {@code config/}
 * (the configuration files, secrets masked by {@link SecretMask}), {@code status.txt},
 * {@code versions.txt}, {@code packages.txt} and {@code part.txt} (what was collected, what not and why).
 * Nothing here fails the part: what cannot be read is a note.
 */
public final class NodePart {
    /** The configuration files collected when present (and every other {@code *.cf}, {@code *.yaml} there). */
    public static final List<String> CONFIG_FILES = List.of("ha.cf", "authkeys", "haresources", "jheartbeat.yaml",
            "sync.yaml", "ldirectord.cf");
    /** The packages whose state {@code packages.txt} shows ({@code dpkg -l}). */
    public static final List<String> PACKAGES = List.of("jheartbeat", "heartbeat", "cluster-glue", "resource-agents",
            "fence-agents", "ipvsadm", "openssh-server", "openssh-client", "rsync", "openjdk-17-jre-headless");
    /** Most bytes of one log kept (its last lines in the window); more is cut and said. */
    static final int MAX_LOG_BYTES = 8 << 20;
    /** Most bytes of one configuration file read (the config reader's limit). */
    static final long MAX_CONFIG_BYTES = 1 << 20;
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What to collect.
     *
     * @param node         this node's name (the part's directory)
     * @param configDir    the configuration directory (ha.cf ...)
     * @param stateDir     the daemon's state directory (the event journal)
     * @param window       the report's window
     * @param logZone      the zone of the log files' times
     * @param status       {@code hb status}'s output (or why there is none)
     * @param versions     the lines of versions.txt this process knows (hb, java)
     * @param stonithNames a STONITH device type → its parameter names, for masking ha.cf
     */
    public record Request(String node, Path configDir, Path stateDir, TimeSpec.Window window, ZoneId logZone,
                          String status, List<String> versions, Function<String, Optional<List<String>>> stonithNames) {
    }

    private final OsProcessRunner runner;

    /** @param runner runs uname, dpkg and journalctl (with an output limit that holds a journal excerpt) */
    public NodePart(OsProcessRunner runner) {
        this.runner = runner;
    }

    /**
     * Writes the part into {@code into/NODE/}.
     *
     * @return the notes (what could not be collected), also in part.txt
     * @throws IOException when the part's own directory cannot be written
     */
    public List<String> collect(Request r, Path into, long collectedAtMillis) throws IOException {
        Path dir = Files.createDirectories(into.resolve(r.node()));
        List<String> notes = new ArrayList<>();
        int events = journals(r, dir, notes);
        config(r, Files.createDirectories(dir.resolve("config")), notes);
        logs(r, Files.createDirectories(dir.resolve("logs")), notes);
        Files.writeString(dir.resolve("status.txt"), SecretMask.file("status.txt", r.status(), r.stonithNames()));
        List<String> versions = new ArrayList<>(r.versions());
        versions.add("kernel: " + command(List.of("uname", "-srvm"), notes).strip());
        osRelease().ifPresent(o -> versions.add("os: " + o));
        String hb = command(List.of("dpkg-query", "-W", "-f", "${Version}", "heartbeat"), null).strip();
        versions.add("heartbeat: " + (hb.isEmpty() ? "not installed" : hb + " (Debian package)"));
        Files.write(dir.resolve("versions.txt"), versions);
        List<String> dpkg = new ArrayList<>(List.of("dpkg", "-l"));
        dpkg.addAll(PACKAGES);
        Files.writeString(dir.resolve("packages.txt"), command(dpkg, notes));
        List<String> part = new ArrayList<>();
        part.add("node: " + r.node());
        part.add("collected_at_ms: " + collectedAtMillis);
        part.add("window_ms: " + r.window().from().toEpochMilli() + " " + r.window().to().toEpochMilli());
        part.add("config_dir: " + r.configDir());
        part.add("state_dir: " + r.stateDir());
        part.add("events: " + events);
        notes.forEach(n -> part.add("note: " + n));
        Files.write(dir.resolve("part.txt"), part);
        return notes;
    }

    /** The events of a part directory (its {@code *.jsonl} journals), each journal in file order; none if it has none. */
    public static List<ClusterEvent> events(Path nodeDir) throws IOException {
        List<ClusterEvent> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(nodeDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    EventCodec.parse(line).ifPresent(out::add);
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return List.of();
        }
        return out;
    }

    /** The notes a part directory's part.txt holds. */
    public static List<String> notes(Path nodeDir) throws IOException {
        Path f = nodeDir.resolve("part.txt");
        return Files.exists(f) ? Files.readAllLines(f).stream().filter(l -> l.startsWith("note: "))
                .map(l -> l.substring(6)).toList() : List.of();
    }

    /**
     * Writes the events in the window of every journal of the state directory (the daemon's, each
     * director's: {@link JournalFiles#journals}) to a file of the same name; returns how many.
     */
    private int journals(Request r, Path dir, List<String> notes) {
        List<String> names;
        try {
            names = JournalFiles.journals(r.stateDir());
        } catch (IOException e) {
            notes.add("cannot list " + r.stateDir() + ": " + e.getMessage());
            names = List.of(JournalFiles.DAEMON);
        }
        if (!Files.exists(JournalFiles.current(r.stateDir(), JournalFiles.DAEMON))) {
            notes.add("no event journal in " + r.stateDir() + " (" + JournalFiles.DAEMON + ")");
        }
        int count = 0;
        for (String name : names) {
            List<String> lines = new ArrayList<>();
            try {
                for (ClusterEvent e : JournalFiles.read(r.stateDir(), name, r.window().from().toEpochMilli(),
                        Integer.MAX_VALUE)) {
                    if (r.window().contains(e.wallMillis())) {
                        lines.add(EventCodec.toJson(masked(e)));
                    }
                }
            } catch (IOException e) {
                notes.add("cannot read the journal " + name + ": " + e.getMessage());
            }
            try {
                if (!lines.isEmpty() || name.equals(JournalFiles.DAEMON)) {
                    Files.write(dir.resolve(name), lines);
                }
            } catch (IOException e) {
                notes.add("cannot write " + name + ": " + e.getMessage());
            }
            count += lines.size();
        }
        return count;
    }

    private static ClusterEvent masked(ClusterEvent e) {
        return new ClusterEvent(e.seq(), e.wallMillis(), e.node(), e.kind(), SecretMask.anyLine(e.subject()),
                SecretMask.anyLine(e.cause()), e.by(), e.durationMillis());
    }

    private void config(Request r, Path into, List<String> notes) {
        if (!Files.isRegularFile(r.configDir().resolve("ha.cf"))) {
            notes.add("no ha.cf in " + r.configDir() + " (no log named; pass --config-dir DIR)");
        }
        List<Path> files = new ArrayList<>();
        CONFIG_FILES.forEach(n -> files.add(r.configDir().resolve(n)));
        try (Stream<Path> s = Files.list(r.configDir())) {
            s.filter(p -> p.getFileName().toString().matches("[^.].*\\.(cf|yaml|yml)") && !files.contains(p))
                    .sorted().forEach(files::add);
        } catch (IOException e) {
            notes.add("cannot list " + r.configDir() + ": " + e.getMessage());
            return;
        }
        for (Path f : files) {
            if (!Files.isRegularFile(f)) {
                continue;
            }
            String name = f.getFileName().toString();
            try {
                if (Files.size(f) > MAX_CONFIG_BYTES) {
                    notes.add(f + " is larger than 1 MiB: not collected");
                    continue;
                }
                String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
                Files.writeString(into.resolve(name), SecretMask.file(name, text, r.stonithNames()));
            } catch (IOException e) {
                notes.add("cannot read " + f + ": " + e.getMessage());
            }
        }
    }

    private void logs(Request r, Path into, List<String> notes) throws IOException {
        for (String directive : List.of("logfile", "debugfile")) {
            Optional<Path> log = haCfPath(r.configDir().resolve("ha.cf"), directive);
            if (log.isEmpty()) {
                continue;
            }
            Deque<String> kept = new ArrayDeque<>();
            long[] bytes = {0, 0}; // kept, cut
            LogWindow w = new LogWindow(r.window(), r.logZone());
            for (Path f : List.of(Path.of(log.get() + ".1"), log.get())) {
                if (Files.isRegularFile(f)) {
                    readLog(f, w, kept, bytes, notes);
                }
            }
            if (!Files.exists(log.get())) {
                notes.add(directive + " " + log.get() + " (ha.cf) does not exist");
            }
            List<String> out = new ArrayList<>();
            if (bytes[1] > 0) {
                out.add("[hb report: the first " + bytes[1] + " bytes of the window were cut; kept the last "
                        + (MAX_LOG_BYTES >> 20) + " MiB]");
            }
            out.addAll(kept);
            Files.write(into.resolve(log.get().getFileName().toString()), out);
        }
        if (Files.exists(Path.of("/run/systemd/journal/socket")) && Files.isExecutable(Path.of("/usr/bin/journalctl"))) {
            String j = command(List.of("journalctl", "-q", "--no-pager", "-o", "short-iso-precise", "-t", "jheartbeat",
                    "--since", "@" + r.window().from().getEpochSecond(), "--until",
                    "@" + (r.window().to().getEpochSecond() + 1)), notes);
            Files.writeString(into.resolve("journal.txt"), SecretMask.file("journal.txt", j, r.stonithNames()));
        } else {
            notes.add("no journald here: no journalctl excerpt");
        }
    }

    private static void readLog(Path f, LogWindow w, Deque<String> kept, long[] bytes, List<String> notes) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(Files.newInputStream(f), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (w.pastEnd(line)) {
                    break;
                }
                if (!w.keep(line)) {
                    continue;
                }
                String m = SecretMask.anyLine(line);
                kept.addLast(m);
                bytes[0] += m.length() + 1;
                while (bytes[0] > MAX_LOG_BYTES && !kept.isEmpty()) {
                    String gone = kept.removeFirst();
                    bytes[0] -= gone.length() + 1;
                    bytes[1] += gone.length() + 1;
                }
            }
        } catch (IOException e) {
            notes.add("cannot read " + f + ": " + e.getMessage());
        }
    }

    /** The path of ha.cf's {@code directive} (logfile, debugfile), read leniently: a broken ha.cf is reported on too. */
    static Optional<Path> haCfPath(Path haCf, String directive) {
        try {
            for (String line : Files.readAllLines(haCf, StandardCharsets.UTF_8)) {
                String[] w = line.strip().split("\\s+");
                if (w.length >= 2 && w[0].equals(directive) && w[1].startsWith("/")) {
                    return Optional.of(Path.of(w[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no ha.cf, or not text: no log named
        }
        return Optional.empty();
    }

    /** The nodes ha.cf names ({@code node} lines), read leniently. */
    public static List<String> haCfNodes(Path haCf) {
        List<String> nodes = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(haCf, StandardCharsets.UTF_8)) {
                String[] w = line.replaceFirst("#.*", "").strip().split("\\s+");
                if (w.length >= 2 && w[0].equals("node")) {
                    nodes.addAll(List.of(w).subList(1, w.length));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no ha.cf: no nodes
        }
        return nodes;
    }

    private String command(List<String> argv, List<String> notes) {
        try {
            ProcessResult r = runner.run(new ProcessSpec(argv, java.util.Map.of(), COMMAND_TIMEOUT));
            if (r.timedOut() && notes != null) {
                notes.add(String.join(" ", argv) + ": no answer within " + COMMAND_TIMEOUT.toSeconds() + " s");
            }
            return r.stdout() + (r.stderr().isBlank() ? "" : r.stderr());
        } catch (IOException e) {
            if (notes != null) {
                notes.add("cannot run " + argv.get(0) + ": " + e.getMessage());
            }
            return "";
        }
    }

    private static Optional<String> osRelease() {
        try {
            return Files.readAllLines(Path.of("/etc/os-release")).stream().filter(l -> l.startsWith("PRETTY_NAME="))
                    .map(l -> l.substring(12).replace("\"", "")).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
