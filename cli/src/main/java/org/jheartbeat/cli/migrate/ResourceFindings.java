package org.jheartbeat.cli.migrate;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jheartbeat.cli.migrate.MigrationFinding.Severity;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.drbd.DrbdDiskAgent;
import org.jheartbeat.resources.fs.BuiltinFilesystem;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.jheartbeat.resources.mail.MailToSpec;
import org.jheartbeat.resources.names.HostnameSpec;
import org.jheartbeat.resources.script.BuiltinLdirectord;
import org.jheartbeat.resources.script.StatusText;

/**
 * The haresources part of {@code hb migrate check}: the stock resource scripts jheartbeat replaces with its own
 * agents (as {@link StandardResourceAgents#forSpec} chooses them), and the scripts whose {@code status} jheartbeat
 * cannot read. A script's status is judged from its text (a {@code status} case) unless {@code probe}, which runs
 * {@code SCRIPT ARGS status} (20 s at most) and reads its output as Heartbeat and jheartbeat do ({@link StatusText}).
 */
public final class ResourceFindings {
    /** Limit of one {@code status} run, jheartbeat's default status timeout. */
    static final Duration STATUS_TIMEOUT = Duration.ofSeconds(20);
    /** A {@code status} case label in a shell script: {@code status)}, {@code status|...)}, {@code ...|status)}. */
    private static final Pattern STATUS_CASE = Pattern.compile("(^|[\\s|(])['\"]?status['\"]?\\s*[|)]",
            Pattern.MULTILINE);
    /** Names whose built-in replaces the script only while {@code resource.d/NAME} is absent. */
    private static final Set<String> UNLESS_SCRIPT = Set.of(HostnameSpec.AGENT, MailToSpec.NAME,
            BuiltinFilesystem.NAME, BuiltinLdirectord.NAME);

    private final Path resourceDir;
    private final Path initDir;
    private final Optional<ProcessRunner> probe;

    /**
     * @param configDir the Heartbeat config directory ({@code resource.d} is under it)
     * @param initDir   the init script directory ({@code /etc/init.d})
     * @param probe     a runner to run {@code SCRIPT status} with, or empty to read the scripts only
     */
    public ResourceFindings(Path configDir, Path initDir, Optional<ProcessRunner> probe) {
        this.resourceDir = configDir.resolve("resource.d");
        this.initDir = initDir;
        this.probe = probe;
    }

    /**
     * @param haresources the file, for findings
     * @param groups      its groups as the parser read them
     * @return one finding per replaced agent per group line, and per script without a readable status
     */
    public List<MigrationFinding> check(Path haresources, List<ResourceGroupDecl> groups) {
        List<MigrationFinding> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (ResourceGroupDecl g : groups) {
            for (ResourceSpec spec : g.resources()) {
                AgentRef ref;
                try {
                    ref = spec.agentRef();
                } catch (IllegalArgumentException e) {
                    continue; // the parser reported it
                }
                if (ref instanceof AgentRef.Heartbeat h) {
                    heartbeat(haresources, g.line(), h, seen, out);
                } else if (ref instanceof AgentRef.Lsb l && seen.add("lsb:" + l.script())) {
                    status(haresources, g.line(), initDir.resolve(l.script()), List.of(), out);
                }
            }
        }
        return out;
    }

    private void heartbeat(Path file, int line, AgentRef.Heartbeat h, Set<String> seen, List<MigrationFinding> out) {
        String name = h.name();
        Path script = resourceDir.resolve(name);
        if (StandardResourceAgents.IP_AGENTS.contains(name) || name.equals(DrbdDiskAgent.NAME)) {
            if (seen.add(line + ":" + name)) {
                out.add(new MigrationFinding(file, line, Severity.CHANGES, name + " is run by jheartbeat's built-in"
                        + " agent, not " + script + " (same arguments; the address is added with 'ip addr' and"
                        + " announced with gratuitous ARP)", "nothing; test a takeover after the move"));
            }
            return;
        }
        if (UNLESS_SCRIPT.contains(name)) {
            if (seen.add(line + ":" + name)) {
                out.add(Files.exists(script)
                        ? new MigrationFinding(file, line, Severity.INFO, name + ": " + script + " exists, so it"
                                + " runs as under Heartbeat; once it is removed (with the heartbeat package) jheartbeat's"
                                + " built-in " + name + " takes over", "nothing; test the group after removing Heartbeat")
                        : new MigrationFinding(file, line, Severity.CHANGES, name + " is run by jheartbeat's built-in"
                                + " agent (there is no " + script + ")", "nothing; test the group after the move"));
            }
            return;
        }
        if (!seen.add(name)) {
            return;
        }
        Path found = Files.isRegularFile(script) ? script : initDir.resolve(name);
        if (Files.isRegularFile(found)) {
            status(file, line, found, h.args(), out);
        }
    }

    private void status(Path file, int line, Path script, List<String> args, List<MigrationFinding> out) {
        if (probe.isPresent()) {
            List<String> argv = new ArrayList<>();
            argv.add(script.toString());
            argv.addAll(args);
            argv.add("status");
            ProcessResult r;
            try {
                r = probe.get().run(ProcessSpec.of(STATUS_TIMEOUT, argv));
            } catch (IOException e) {
                out.add(noStatus(file, line, script, "'" + script + " status' could not run: " + e.getMessage()));
                return;
            }
            String said = r.stdout().strip();
            boolean answers = !r.timedOut() && (StatusText.saysRunning(r.stdout())
                    || said.toLowerCase(java.util.Locale.ROOT).matches("(?s).*(stopped|not running).*"));
            if (!answers) {
                out.add(noStatus(file, line, script, "'" + script + " status' " + (r.timedOut() ? "did not finish in "
                        + STATUS_TIMEOUT.toSeconds() + " s" : "exited " + r.exitCode() + " and printed ["
                        + (said.length() > 60 ? said.substring(0, 60) + "..." : said) + "]") + ", neither 'running'"
                        + " nor 'stopped'"));
            }
            return;
        }
        String text;
        try {
            text = Files.readString(script, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return;
        }
        if (text.startsWith("#!") && !STATUS_CASE.matcher(text).find()) {
            out.add(noStatus(file, line, script, script + " has no status case"));
        }
    }

    private static MigrationFinding noStatus(Path file, int line, Path script, String what) {
        return new MigrationFinding(file, line, Severity.UNSAFE, what + ": jheartbeat, like Heartbeat, reads the"
                + " words of its status output ('running', 'OK') to know whether the service runs, so it always sees"
                + " it stopped: it starts it again on a node where it runs, and hb status says stopped",
                "give " + script.getFileName() + " a status case that prints 'running' or 'stopped' (or name an"
                        + " lsb:/systemd: resource instead); check with hb migrate check --probe");
    }
}
