package org.jheartbeat.cli.command;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.report.NodePart;
import org.jheartbeat.cli.report.ReportSummary;
import org.jheartbeat.cli.report.TarFiles;
import org.jheartbeat.cli.report.TimeSpec;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.time.WallClocks;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.device.fenceagent.FenceAgentDevice;
import org.jheartbeat.stonith.registry.StonithDevices;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code hb report}, as Heartbeat's {@code hb_report} and Pacemaker's {@code crm_report}: for a time window,
 * collects this node's part and the peer's (over the ssh {@code hb config push} uses, by running
 * {@code hb report --part} there) into one {@code .tar.gz} with a {@code summary.txt}: the merged timeline
 * of both nodes and the failovers in it with their durations. A peer that cannot be reached is said in
 * the summary and on stderr; this node's part is collected all the same.
 */
@Command(name = "report", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Collect, for a time window, both nodes' logs, event journals, configuration (secrets masked),"
                + " status, versions and package state into one .tar.gz with a summary of what happened.",
            "The peer's part comes over ssh (as hb config push), by running 'hb report --part' there."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:archive written (a peer that could not be reached is said in its summary and on stderr)",
            "1:the archive could not be written (tar failed, disk full)",
            "2:a wrong argument: a time that is not one, --from after --to, --dest exists, no peer to ask",
            "64:usage error"})
public final class ReportCommand implements Callable<Integer> {
    static final String BEGIN = "-----BEGIN HB REPORT PART-----";
    static final String END = "-----END HB REPORT PART-----";
    /** coreutils {@code timeout}'s exit code when it stopped the command with TERM, and with KILL ({@code -k}). */
    private static final int TIMED_OUT = 124;
    private static final int TIMED_OUT_KILLED = 137;

    @Spec
    CommandSpec spec;

    @Option(names = {"-f", "--from"}, paramLabel = "TIME", description = "Start of the window: ISO-8601"
            + " (2026-12-06T03:00:00Z; without an offset, local time), a time ago (2h, 30m, 1d) or @MS since the"
            + " epoch (default: an hour before --to).")
    String from;

    @Option(names = {"-t", "--to"}, paramLabel = "TIME", description = "End of the window, in the same forms"
            + " (default: now).")
    String to;

    @Option(names = "--dest", paramLabel = "FILE", description = "The archive to write (default:"
            + " hb-report-NODE-YYYYMMDD-HHMMSS.tar.gz in the current directory); it must not exist.")
    Path dest;

    @Mixin
    ConfigDirOption configDir;

    @Mixin
    StateDirOption stateDir;

    @Mixin
    NodeNameOption nodeName;

    @Mixin
    PeerSshOptions peerSsh;

    @Option(names = "--no-peer", description = "Collect this node only.")
    boolean noPeer;

    @Option(names = "--remote-config-dir", paramLabel = "DIR",
            description = "The configuration directory on the peer (default: the same as --config-dir).")
    String remoteConfigDir;

    @Option(names = "--remote-state-dir", paramLabel = "DIR",
            description = "The state directory on the peer (default: the same as --state-dir).")
    String remoteStateDir;

    @Option(names = "--peer-timeout", paramLabel = "S", defaultValue = "120", description = "Seconds the peer's part may"
            + " take (default 120, at least 15). The peer's hb runs under coreutils' timeout, stopped 10 s before this"
            + " (killed 5 s later), so a peer that hangs leaves nothing running there when ssh is cut.")
    int peerTimeout;

    @Option(names = "--part", hidden = true, description = "Print this node's part (base64 of a .tar.gz) for the"
            + " node that runs hb report.")
    boolean part;

    /** The wall clock (the window's "now", the clock offset); a test may set another. */
    Clock clock = WallClocks.system();

    @Override
    public Integer call() throws UserException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ZoneId zone = ZoneId.systemDefault();
        TimeSpec.Window window;
        try {
            window = TimeSpec.window(from, to, clock.instant(), zone);
        } catch (IllegalArgumentException e) {
            throw new UserException(ExitCodes.CONFIG, "report: " + e.getMessage());
        }
        if (peerTimeout < 15 || peerTimeout > 3600) {
            throw new UserException(ExitCodes.CONFIG, "report: --peer-timeout " + peerTimeout + " is not between 15"
                    + " and 3600 seconds; give a number of seconds in that range");
        }
        String me = nodeName.value().orElseGet(() -> ConfigCommand.thisNode().toString());
        OsProcessRunner runner = new OsProcessRunner(Path.of(System.getProperty("java.io.tmpdir")), 16 << 20);
        if (part) {
            return printPart(window, me, zone, runner, out);
        }
        Path archive = destination(me, zone);
        Optional<String> peerHost = noPeer ? Optional.empty() : Optional.of(peerHost(me));
        String top = archive.getFileName().toString().replaceFirst("\\.(tar\\.gz|tgz)$", "");
        Path work;
        try {
            work = Files.createTempDirectory("hb-report");
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "report: cannot make a temporary directory: " + e.getMessage());
        }
        try {
            Path root = Files.createDirectories(work.resolve(top));
            List<ReportSummary.Part> parts = new ArrayList<>();
            List<String> notes = new NodePart(runner).collect(request(me, configDir.path(), stateDir.path(), window,
                    zone), root, clock.millis());
            parts.add(new ReportSummary.Part(me, "on this node", Optional.empty(), Optional.empty(), notes));
            String peerNode = null;
            if (peerHost.isPresent()) {
                PeerFetch f = fetchPeer(peerHost.get(), window, root, work, me, runner);
                parts.add(f.part());
                peerNode = f.part().failure().isEmpty() ? f.part().node() : null;
            }
            List<List<ClusterEvent>> events = new ArrayList<>();
            events.add(NodePart.events(root.resolve(me)));
            if (peerNode != null) {
                events.add(NodePart.events(root.resolve(peerNode)));
            }
            List<ClusterEvent> merged = ReportSummary.merge(events);
            Files.writeString(root.resolve("summary.txt"), ReportSummary.render(window, me, parts, merged, zone));
            new TarFiles(runner).create(work, top, archive);
            out.println("Wrote " + archive + " (" + Files.size(archive) + " bytes): " + String.join(", ",
                    parts.stream().filter(p -> p.failure().isEmpty()).map(ReportSummary.Part::node).toList())
                    + "; " + merged.size() + " events; summary in " + top + "/summary.txt");
            for (ReportSummary.Part p : parts) {
                p.failure().ifPresent(f -> err.println("hb: report: the peer (" + p.how() + ") was not collected: " + f
                        + "; the archive has " + me + "'s part only"));
            }
            return ExitCodes.OK;
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "report: " + e.getMessage() + "; no archive written");
        } finally {
            deleteTree(work);
        }
    }

    /** One node's part as base64 between markers on stdout: what {@code hb report} on the other node reads over ssh. */
    private int printPart(TimeSpec.Window window, String me, ZoneId zone, OsProcessRunner runner, PrintWriter out)
            throws UserException {
        Path work = null;
        try {
            work = Files.createTempDirectory("hb-report-part");
            new NodePart(runner).collect(request(me, configDir.path(), stateDir.path(), window, zone), work,
                    clock.millis());
            Path tgz = work.resolve("part.tar.gz");
            new TarFiles(runner).create(work, me, tgz);
            out.println(BEGIN);
            out.println(Base64.getMimeEncoder().encodeToString(Files.readAllBytes(tgz)));
            out.println(END);
            return ExitCodes.OK;
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "report --part: " + e.getMessage());
        } finally {
            deleteTree(work);
        }
    }

    private NodePart.Request request(String me, Path config, Path state, TimeSpec.Window window, ZoneId zone) {
        List<String> versions = new ArrayList<>();
        versions.add("hb: " + String.join(" ", spec.root().version()));
        versions.add("java: " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name")
                + ", " + System.getProperty("java.vendor") + ")");
        return new NodePart.Request(me, config, state, window, zone, status(state), versions,
                ReportCommand::stonithNames);
    }

    /** {@code hb status} of the daemon on {@code state}, run in this process, or what it said instead. */
    private static String status(Path state) {
        StringWriter text = new StringWriter();
        PrintWriter w = new PrintWriter(text);
        CommandLine cl = new CommandLine(new StatusCommand());
        cl.setOut(w);
        cl.setErr(w);
        cl.setExecutionExceptionHandler((ex, c, p) -> {
            w.println("hb status: " + ex.getMessage());
            return ExitCodes.FAILURE;
        });
        int code = cl.execute("--state-dir", state.toString());
        w.println("(hb status --state-dir " + state + ": exit " + code + ")");
        w.flush();
        return text.toString();
    }

    /** A STONITH type's parameter names, for masking ha.cf: built-ins and fence agents; empty (mask all) otherwise. */
    static Optional<List<String>> stonithNames(String type) {
        if (type.startsWith("fence_")) {
            return Optional.of(FenceAgentDevice.FALLBACK_OPTIONS);
        }
        if (!StonithDevices.builtInTypes().contains(type.toLowerCase(Locale.ROOT))) {
            return Optional.empty();
        }
        try {
            StonithDevice d = StonithDevices.create(type);
            return Optional.of(d.configNames());
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private record PeerFetch(ReportSummary.Part part) {
    }

    private PeerFetch fetchPeer(String host, TimeSpec.Window window, Path root, Path work, String me,
                                OsProcessRunner runner) {
        String how = "over ssh " + host;
        List<String> argv = SshTransport.split(peerSsh.ssh);
        SshTransport t = new SshTransport(argv, host, peerTimeout);
        try {
            long t0 = clock.millis();
            SshTransport.Reply date = t.run("date +%s%3N", new byte[0]);
            long t1 = clock.millis();
            Optional<ReportSummary.ClockOffset> offset = Optional.empty();
            if (date.code() != 0) {
                return failed(how, t.describeFailure(date, "/", "--peer"));
            }
            String d = new String(date.out(), StandardCharsets.UTF_8).strip();
            if (d.matches("\\d{10,16}")) {
                offset = Optional.of(new ReportSummary.ClockOffset(Long.parseLong(d) - (t0 + t1) / 2, (t1 - t0 + 1) / 2));
            }
            // sshd does not end the remote command when this ssh is killed at its timeout: the peer stops it itself
            String cmd = "timeout -k 5 " + remoteLimit() + " " + peerSsh.remoteHb + " report --part --from @" + window.from().toEpochMilli() + " --to @"
                    + window.to().toEpochMilli() + " --config-dir " + quote(remoteConfigDir != null ? remoteConfigDir
                    : configDir.path().toAbsolutePath().toString()) + " --state-dir " + quote(remoteStateDir != null
                    ? remoteStateDir : stateDir.path().toAbsolutePath().toString());
            SshTransport.Reply r = t.run(cmd, new byte[0]);
            if (r.code() == 127) {
                return failed(how, "'" + peerSsh.remoteHb + "' not found on " + host + " (" + lastLine(r.err())
                        + "); install jheartbeat there or pass --remote-hb CMD");
            }
            if (r.code() == TIMED_OUT || r.code() == TIMED_OUT_KILLED) {
                return failed(how, "its part did not finish within " + remoteLimit() + " s on " + host + " and was"
                        + " stopped there; give a shorter window (--from/--to) or more time (--peer-timeout S)");
            }
            if (r.code() != 0) {
                return failed(how, t.describeFailure(r, "/", "--peer"));
            }
            String text = new String(r.out(), StandardCharsets.UTF_8);
            int b = text.indexOf(BEGIN);
            int e = text.indexOf(END);
            if (b < 0 || e < b) {
                return failed(how, "unexpected answer from " + host + " (no part between the markers; is its hb older"
                        + " than hb report?)");
            }
            byte[] tgz = Base64.getMimeDecoder().decode(text.substring(b + BEGIN.length(), e).strip());
            Path file = work.resolve("peer-part.tar.gz");
            Files.write(file, tgz);
            TarFiles tar = new TarFiles(runner);
            List<String> entries = tar.list(file);
            String node = entries.isEmpty() ? "" : entries.get(0).replaceFirst("/.*", "");
            if (!node.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}") || node.equals(me) || node.equals("summary.txt")) {
                return failed(how, "the part from " + host + " is for node '" + node + "' (this node is " + me + ")");
            }
            tar.extractBelow(file, root, node);
            Files.delete(file);
            return new PeerFetch(new ReportSummary.Part(node, how, Optional.empty(), offset,
                    NodePart.notes(root.resolve(node))));
        } catch (UserException ex) {
            return failed(how, ex.getMessage());
        } catch (IOException | IllegalArgumentException ex) {
            return failed(how, "its part could not be read: " + ex.getMessage());
        }
    }

    /** Seconds the peer's {@code hb report --part} may run there: 10 s under {@code --peer-timeout}. */
    private int remoteLimit() {
        return peerTimeout - 10;
    }

    private static PeerFetch failed(String how, String why) {
        return new PeerFetch(new ReportSummary.Part("peer", how, Optional.of(why), Optional.empty(), List.of()));
    }

    /** The last line of a text, for messages. */
    private static String lastLine(String s) {
        String[] l = s.strip().split("\n");
        return l[l.length - 1].strip();
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private Path destination(String me, ZoneId zone) throws UserException {
        Path p = dest != null ? dest : Path.of("hb-report-" + me + "-" + DateTimeFormatter.ofPattern("uuuuMMdd-HHmmss",
                Locale.ROOT).withZone(zone).format(clock.instant()) + ".tar.gz");
        p = p.toAbsolutePath().normalize();
        if (Files.exists(p)) {
            throw new UserException(ExitCodes.CONFIG, "report: --dest " + p + " exists; remove it or give another name");
        }
        if (!Files.isDirectory(p.getParent())) {
            throw new UserException(ExitCodes.CONFIG, "report: --dest " + p + ": directory " + p.getParent()
                    + " does not exist");
        }
        String name = p.getFileName().toString();
        if (!name.endsWith(".tar.gz") && !name.endsWith(".tgz")) {
            throw new UserException(ExitCodes.CONFIG, "report: --dest " + p + ": the archive is a gzip'd tar; name it"
                    + " NAME.tar.gz");
        }
        return p;
    }

    /** The peer: --peer, else the other node of ha.cf. */
    private String peerHost(String me) throws UserException {
        String peer = peerSsh.peer;
        if (peer != null) {
            if (peer.isBlank() || peer.startsWith("-") || peer.chars().anyMatch(Character::isWhitespace)) {
                throw new UserException(ExitCodes.CONFIG, "report: --peer '" + peer + "' is not a host name or address");
            }
            return peer;
        }
        Path haCf = configDir.path().resolve("ha.cf");
        List<String> others = NodePart.haCfNodes(haCf).stream().filter(n -> !n.equalsIgnoreCase(me)).toList();
        if (others.size() != 1) {
            throw new UserException(ExitCodes.CONFIG, "report: cannot tell the peer: this node is " + me + " and "
                    + haCf + " names " + (others.isEmpty() ? "no other node" : "nodes " + others) + "; pass --peer HOST"
                    + " (or --no-peer for this node only)");
        }
        return others.get(0);
    }

    private static void deleteTree(Path dir) {
        if (dir == null) {
            return;
        }
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind: the system's tmp cleaning removes it
        }
    }
}
