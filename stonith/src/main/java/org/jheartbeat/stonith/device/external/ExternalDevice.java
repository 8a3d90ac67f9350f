package org.jheartbeat.stonith.device.external;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithConfigException;
import org.jheartbeat.stonith.StonithDevice;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.HostList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cluster-glue external plugin, type {@code external/<name>}, run as cluster-glue's
 * {@code external.c} does (facts stonith-sync §2.4):
 * <ul>
 * <li>the script {@code <pluginDir>/<name>} must be a regular executable file not writable by
 *     group or others, else it is refused "for security purposes";</li>
 * <li>it is run as {@code <script> <op> [<host>]} with ops {@code getconfignames},
 *     {@code gethosts}, {@code status}, {@code reset|on|off <host>}; the configured parameters are
 *     passed as environment variables named exactly like the config names, plus
 *     {@code HA_LOGTAG=external/<name>} and {@code PATH} prefixed with cluster-glue's shared dir
 *     (where {@code ha_log.sh} lives);</li>
 * <li>{@code configNames} are the words {@code getconfignames} prints, in order (the {@code -p}
 *     order);</li>
 * <li>exit codes: reset/on/off 0 = OK, anything else {@link StonithResult#RESETFAIL};
 *     {@code status} returns the script's code unchanged (unknown codes become OOPS);
 *     a run killed on timeout is {@link StonithResult#TIMEOUT}, a script that cannot be started
 *     {@link StonithResult#OOPS}.</li>
 * </ul>
 * Like cluster-glue, the bridge does not check that the node is in {@code gethosts}; the script
 * must (external/ssh does). Node names are lower-cased before the script sees them (§2.2).
 */
public final class ExternalDevice implements StonithDevice {
    /** Where Debian's cluster-glue installs external plugins. */
    public static final Path DEFAULT_PLUGIN_DIR = Path.of("/usr/lib/stonith/plugins/external");
    /** cluster-glue's shared dir, prefixed to PATH so scripts find {@code ha_log.sh}. */
    public static final String CLUSTER_GLUE_SHARE = "/usr/share/cluster-glue";
    /** Default limit for info ops (getconfignames, gethosts, status): 30 s. */
    public static final Duration DEFAULT_INFO_TIMEOUT = Duration.ofSeconds(30);
    /** Default limit for reset/on/off: 120 s (power cycles through BMCs are slow). */
    public static final Duration DEFAULT_RESET_TIMEOUT = Duration.ofSeconds(120);
    private static final Logger LOG = LoggerFactory.getLogger(ExternalDevice.class);
    private static final Set<PosixFilePermission> UNSAFE = Set.of(
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_WRITE);

    private final String name;
    private final Path script;
    private final ProcessRunner runner;
    private final Duration infoTimeout;
    private final Duration resetTimeout;
    private final List<String> configNames;
    private Map<String, String> env;

    /**
     * The plugin {@code name} in the default dir, with {@link OsProcessRunner} and default timeouts.
     *
     * @throws StonithConfigException as {@link #ExternalDevice(String, Path, ProcessRunner, Duration, Duration)}
     */
    public ExternalDevice(String name) throws StonithConfigException {
        this(name, DEFAULT_PLUGIN_DIR, new OsProcessRunner(), DEFAULT_INFO_TIMEOUT, DEFAULT_RESET_TIMEOUT);
    }

    /**
     * Checks the script and runs {@code getconfignames}.
     *
     * @param name         plugin name without {@code external/}, no {@code /}
     * @param pluginDir    directory holding the scripts
     * @param runner       runs the script
     * @param infoTimeout  limit for getconfignames/gethosts/status, positive
     * @param resetTimeout limit for reset/on/off, positive
     * @throws StonithConfigException when the name is bad, the script is missing, not executable,
     *                                writable by group/others, or getconfignames fails
     */
    public ExternalDevice(String name, Path pluginDir, ProcessRunner runner, Duration infoTimeout,
            Duration resetTimeout) throws StonithConfigException {
        if (name == null || name.isEmpty() || name.contains("/") || name.startsWith(".")) {
            throw new StonithConfigException("external plugin name '" + name + "' is not a plain file name (see 'hb stonith list-types')");
        }
        this.name = name;
        this.script = pluginDir.resolve(name);
        this.runner = runner;
        this.infoTimeout = infoTimeout;
        this.resetTimeout = resetTimeout;
        checkScript(script);
        this.env = baseEnv();
        ProcessResult r = run(infoTimeout, "getconfignames");
        if (r == null || !r.succeeded()) {
            throw new StonithConfigException(type() + ": '" + script + " getconfignames' failed"
                    + describe(r) + "; is it a cluster-glue external plugin?");
        }
        this.configNames = words(r.stdout());
    }

    /**
     * Refuses what cluster-glue refuses: not a regular file, not executable, writable by group or
     * others (facts §2.4).
     *
     * @throws StonithConfigException saying which rule failed
     */
    static void checkScript(Path script) throws StonithConfigException {
        if (!Files.isRegularFile(script)) {
            throw new StonithConfigException("external plugin " + script + " does not exist or is not a "
                    + "regular file (see 'hb stonith list-types')");
        }
        if (!Files.isExecutable(script)) {
            throw new StonithConfigException("external plugin " + script + " is not executable");
        }
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(script, LinkOption.NOFOLLOW_LINKS);
            if (perms.stream().anyMatch(UNSAFE::contains)) {
                throw new StonithConfigException("external plugin " + script + " is writable by group or "
                        + "others; refused for security purposes (chmod go-w it)");
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new StonithConfigException("cannot read permissions of " + script + ": " + e.getMessage());
        }
    }

    @Override
    public String type() {
        return "external/" + name;
    }

    @Override
    public List<String> configNames() {
        return configNames;
    }

    /**
     * Keeps the values to pass as environment variables. Names the plugin does not list in
     * {@code getconfignames} are passed with a WARN (scripts read undeclared optional ones, e.g.
     * external/ssh's {@code livedangerously}); listed names left out are simply not set (scripts
     * apply their own defaults, e.g. external/nut's {@code poweroff}).
     *
     * @throws StonithConfigException for a name that is not a valid environment variable name, or
     *                                is {@code PATH} / {@code HA_LOGTAG}
     */
    @Override
    public void configure(Map<String, String> params) throws StonithConfigException {
        for (String key : params.keySet()) {
            if (!key.matches("[A-Za-z_][A-Za-z0-9_]*") || key.equals("PATH") || key.equals("HA_LOGTAG")) {
                throw new StonithConfigException(type() + ": parameter name '" + key
                        + "' cannot be passed as an environment variable; valid names: "
                        + String.join(" ", configNames));
            }
            if (!configNames.contains(key)) {
                LOG.warn("{}: parameter '{}' is not in getconfignames ({}); passing it anyway (scripts "
                        + "read optional ones such as external/ssh's livedangerously)", type(), key,
                        String.join(" ", configNames));
            }
        }
        Map<String, String> e = new LinkedHashMap<>(baseEnv());
        e.putAll(params);
        this.env = Map.copyOf(e);
    }

    /** Runs {@code status}: the script's exit code as an S_* code. */
    @Override
    public StonithResult status() {
        ProcessResult r = run(infoTimeout, "status");
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            return StonithResult.TIMEOUT;
        }
        return StonithResult.fromCode(r.exitCode());
    }

    /** Runs {@code gethosts}: whitespace-separated names, lower-cased; empty when it fails. */
    @Override
    public List<String> hostList() {
        ProcessResult r = run(infoTimeout, "gethosts");
        if (r == null || !r.succeeded()) {
            LOG.error("{}: gethosts failed{}", type(), describe(r));
            return List.of();
        }
        return HostList.parse(r.stdout());
    }

    /** Runs {@code reset|on|off <node>}: 0 is OK, other codes RESETFAIL, timeout TIMEOUT. */
    @Override
    public StonithResult reset(ResetRequest request, String node) {
        String host = HostList.normalize(node);
        ProcessResult r = run(resetTimeout, request.word(), host);
        if (r == null) {
            return StonithResult.OOPS;
        }
        if (r.timedOut()) {
            LOG.error("{}: {} {} timed out after {} s", type(), request.word(), host, resetTimeout.toSeconds());
            return StonithResult.TIMEOUT;
        }
        if (r.exitCode() != 0) {
            LOG.error("{}: {} {} failed{}", type(), request.word(), host, describe(r));
            return StonithResult.RESETFAIL;
        }
        LOG.info("{}: {} {} done", type(), request.word(), host);
        return StonithResult.OK;
    }

    private Map<String, String> baseEnv() {
        String path = System.getenv("PATH");
        return Map.of("HA_LOGTAG", type(),
                "PATH", CLUSTER_GLUE_SHARE + (path == null ? "" : ":" + path));
    }

    /** @return the result, or {@code null} when the script could not be started (logged) */
    private ProcessResult run(Duration timeout, String... args) {
        List<String> argv = new ArrayList<>();
        argv.add(script.toString());
        argv.addAll(Arrays.asList(args));
        try {
            return runner.run(new ProcessSpec(argv, new HashMap<>(env), timeout));
        } catch (IOException e) {
            LOG.error("{}: cannot run {}: {}", type(), String.join(" ", argv), e.getMessage());
            return null;
        }
    }

    private static String describe(ProcessResult r) {
        if (r == null) {
            return " (could not start)";
        }
        if (r.timedOut()) {
            return " (timed out)";
        }
        String text = (r.stdout() + " " + r.stderr()).strip().replaceAll("\\s+", " ");
        return " (exit " + r.exitCode() + (text.isEmpty() ? "" : ": " + abbreviate(text)) + ")";
    }

    private static String abbreviate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    private static List<String> words(String text) {
        return Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }
}
