package org.jheartbeat.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Checks an export with Pacemaker's own tools before anything is written (Debian 12 package
 * {@code pacemaker-cli-utils}): {@code crm_verify --xml-file} must report no error and no warning
 * for every {@link Placement#expectations scenario}, and {@code crm_simulate --simulate} must start
 * every group where the scenario expects it. Optionally {@code corosync -t} (package {@code
 * corosync}) parses the corosync.conf, in a private UTS namespace named after the first node (the
 * parser must find the local node in the nodelist) with a throw-away key. The I/O edge of the export.
 */
public final class PacemakerCheck {
    /** Each tool run's bound: they take well under a second. */
    static final Duration TOOL_TIMEOUT = Duration.ofSeconds(30);
    private static final List<Path> DIRS = List.of(Path.of("/usr/sbin"), Path.of("/usr/bin"), Path.of("/sbin"),
            Path.of("/bin"));

    private final ProcessRunner runner;
    private final Path workDir;
    private final List<Path> dirs;

    /**
     * @param runner  runs the tools
     * @param workDir an existing empty directory for the scenario files (the caller removes it)
     */
    public PacemakerCheck(ProcessRunner runner, Path workDir) {
        this(runner, workDir, DIRS);
    }

    /** As above, looking for the tools in {@code dirs} (tests). */
    PacemakerCheck(ProcessRunner runner, Path workDir, List<Path> dirs) {
        this.runner = runner;
        this.workDir = workDir;
        this.dirs = List.copyOf(dirs);
    }

    private Optional<Path> locate(String tool) {
        return dirs.stream().map(d -> d.resolve(tool)).filter(Files::isExecutable).findFirst();
    }

    /**
     * What the check found.
     *
     * @param ok       whether every check passed
     * @param log      one line per check run (scenario, tool, verdict), for the user
     * @param problems what failed, with the tool's own messages; or which tool is missing
     */
    public record Outcome(boolean ok, List<String> log, List<String> problems) {
    }

    /** The full path of {@code tool} in the usual system directories, if installed. */
    static Optional<Path> find(String tool) {
        return DIRS.stream().map(d -> d.resolve(tool)).filter(Files::isExecutable).findFirst();
    }

    /**
     * @param cib          the configuration
     * @param corosyncConf the corosync.conf text ({@code corosync -t} is skipped when corosync,
     *                     corosync-keygen or unshare is missing, or we are not root: said in the log)
     * @return the outcome; never throws for a failing check
     * @throws IOException if a scenario file cannot be written or a tool cannot be started
     */
    public Outcome check(Cib cib, String corosyncConf) throws IOException {
        List<String> log = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Optional<Path> verify = locate("crm_verify");
        Optional<Path> simulate = locate("crm_simulate");
        if (verify.isEmpty() || simulate.isEmpty()) {
            problems.add((verify.isEmpty() ? "crm_verify" : "crm_simulate") + " is not installed, so the export cannot"
                    + " be checked: install Debian's pacemaker-cli-utils (apt-get install --no-install-recommends"
                    + " pacemaker-cli-utils), or give --no-verify to write it unchecked");
            return new Outcome(false, log, problems);
        }
        int n = 0;
        for (Placement.Expectation e : Placement.expectations(cib)) {
            Path file = workDir.resolve("scenario-" + (++n) + ".xml");
            Files.writeString(file, CibXml.render(cib, e.scenario()), StandardCharsets.UTF_8);
            ProcessResult v = runner.run(ProcessSpec.of(TOOL_TIMEOUT, verify.get().toString(), "--xml-file",
                    file.toString()));
            String vOut = (v.stdout() + v.stderr()).strip();
            if (v.exitCode() != 0 || v.timedOut() || !vOut.isEmpty()) {
                problems.add("crm_verify (" + e.scenario().name() + ") exit " + v.exitCode()
                        + (vOut.isEmpty() ? "" : ":\n" + vOut));
                continue;
            }
            log.add("crm_verify --xml-file (" + e.scenario().name() + "): valid");
            ProcessResult s = runner.run(ProcessSpec.of(TOOL_TIMEOUT, simulate.get().toString(), "--xml-file",
                    file.toString(), "--simulate"));
            if (s.exitCode() != 0 || s.timedOut()) {
                problems.add("crm_simulate (" + e.scenario().name() + ") exit " + s.exitCode() + ":\n"
                        + (s.stdout() + s.stderr()).strip());
                continue;
            }
            Map<String, String> started = Placement.started(s.stdout());
            List<String> wrong = Placement.mismatches(cib, e, started);
            if (!wrong.isEmpty()) {
                problems.add("crm_simulate (" + e.scenario().name() + ") placed the groups otherwise: "
                        + String.join("; ", wrong));
                continue;
            }
            StringBuilder where = new StringBuilder();
            e.expected().forEach((g, node) -> where.append(where.length() == 0 ? "" : ", ").append(g).append(" on ")
                    .append(node));
            log.add("crm_simulate --simulate (" + e.scenario().name() + "): "
                    + (where.length() == 0 ? "no groups" : where));
        }
        corosync(cib, corosyncConf, log, problems);
        return new Outcome(problems.isEmpty(), log, problems);
    }

    private void corosync(Cib cib, String conf, List<String> log, List<String> problems) throws IOException {
        Optional<Path> corosync = locate("corosync");
        Optional<Path> keygen = locate("corosync-keygen");
        Optional<Path> unshare = locate("unshare");
        boolean root = "root".equals(System.getProperty("user.name"));
        if (corosync.isEmpty() || keygen.isEmpty() || unshare.isEmpty() || !root) {
            log.add("corosync -t: skipped (" + (root ? "corosync, corosync-keygen or unshare not installed"
                    : "needs root for a private UTS namespace") + "); corosync.conf not parsed by Corosync");
            return;
        }
        Path key = workDir.resolve("authkey");
        ProcessResult k = runner.run(ProcessSpec.of(TOOL_TIMEOUT, keygen.get().toString(), "-k", key.toString()));
        if (k.exitCode() != 0) {
            log.add("corosync -t: skipped (corosync-keygen failed: " + k.stderr().strip() + ")");
            return;
        }
        Path file = workDir.resolve("corosync.conf");
        Files.writeString(file, conf.replace("keyfile: /etc/corosync/authkey", "keyfile: " + key),
                StandardCharsets.UTF_8);
        String node = cib.nodes().get(0).name();
        ProcessResult r = runner.run(ProcessSpec.of(TOOL_TIMEOUT, unshare.get().toString(), "--uts", "sh", "-c",
                "hostname \"$1\" && exec \"$2\" -t -c \"$3\"", "sh", node, corosync.get().toString(), file.toString()));
        String out = (r.stdout() + r.stderr()).strip();
        if (r.exitCode() != 0 || out.contains("error")) {
            problems.add("corosync -t (as " + node + ") exit " + r.exitCode() + ":\n" + out);
        } else {
            log.add("corosync -t (as " + node + "): corosync.conf parsed");
        }
    }
}
