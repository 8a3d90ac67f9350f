package org.jheartbeat.cli.lab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Drives {@code lab/lab.sh} from tests: a two-node lab in network namespaces with a unique id, torn
 * down (every namespace and process) by {@link #close()}, also after a failure.
 */
public final class Lab implements AutoCloseable {
    private final Path root;
    private final String id;
    private final Path runDir;
    private final Map<String, String> env;

    /** Creates the lab (namespaces, links, config dirs) with the given extra environment. */
    public Lab(Map<String, String> extraEnv) throws IOException, InterruptedException {
        this.root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        this.id = "it" + randomId();
        this.runDir = root.resolve("cli/target/lab-run").resolve(id);
        Map<String, String> e = new java.util.HashMap<>(extraEnv);
        e.put("LAB_ID", id);
        e.put("LAB_RUN", runDir.toString());
        e.put("HB_JAR", Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString())).toString());
        this.env = Map.copyOf(e);
        Result up = lab("up");
        if (up.code() != 0) {
            close();
            throw new IOException("lab up failed: " + up.output());
        }
    }

    private static String randomId() {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom r = new SecureRandom();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /** What a command printed (stdout and stderr merged) and its exit code. */
    public record Result(int code, String output) { }

    /** Runs {@code lab.sh ARGS...} for this lab. */
    public Result lab(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>();
        argv.add(root.resolve("lab/lab.sh").toString());
        argv.addAll(List.of(args));
        return run(argv, 120);
    }

    /** Runs any command with this lab's environment. */
    public Result run(List<String> argv, long timeoutS) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env);
        Path out = Files.createTempFile("lab", ".out");
        pb.redirectOutput(out.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException("timed out after " + timeoutS + " s: " + argv);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Body of {@code http://198.18.0.100:8080/} as seen from the client, trimmed, or "" if no answer. */
    public String http() throws IOException, InterruptedException {
        Result r = lab("http");
        return r.code() == 0 ? r.output().trim() : "";
    }

    /** Whether {@code node}'s namespace holds IPv4 {@code ip} right now (one {@code ip -n NS addr} call). */
    public boolean holds(String node, String ip) throws IOException, InterruptedException {
        Result r = run(List.of("ip", "-n", namespace(node), "-o", "-4", "addr", "show"), 10);
        return r.output().contains(" " + ip + "/");
    }

    /**
     * Whether both nodes held {@code ip} at one same instant, probed without the race of two
     * sequential reads: node1, then node2, then node1 again. A single move between two probes (in
     * either direction, release before acquire) can never make all three true, while an overlap that
     * lasts the three probes does. Two plain {@code holds} calls in a row report a false double when
     * the address moves from node1 to node2 between them, which on a loaded machine (a fork of
     * {@code ip} each, hundreds of ms apart) happens.
     */
    public boolean heldByBoth(String ip) throws IOException, InterruptedException {
        return holds("node1", ip) && holds("node2", ip) && holds("node1", ip);
    }

    /** The network namespace of {@code node1} or {@code node2}. */
    public String namespace(String node) {
        return id + "-" + (node.endsWith("1") ? "n1" : "n2");
    }

    /** The client's network namespace (the host on the LAN that uses the VIP). */
    public String clientNamespace() {
        return id + "-cl";
    }

    /** The lab's run directory (config dirs, state dirs, daemon output). */
    public Path runDir() {
        return runDir;
    }

    /**
     * The ssh command line ({@code lab.sh ssh-cmd}) for node-to-node ssh and rsync inside the lab: every
     * jheartbeat node runs an sshd on its two addresses, port 22, accepting this lab's key for root.
     * Split on blanks (the run dir has none); use it inside a node, e.g. {@code lab("exec", "node1", ...)}.
     */
    public String sshCommand() throws IOException, InterruptedException {
        Result r = lab("ssh-cmd");
        if (r.code() != 0) {
            throw new IOException("lab.sh ssh-cmd failed: " + r.output());
        }
        return r.output().trim();
    }

    /** Where {@code node}'s own {@code /srv} lives on the host (bind-mounted on /srv inside the node). */
    public Path srv(String node) {
        return runDir.resolve(node).resolve("srv");
    }

    /** Where {@code node}'s own {@code /var/lib/jheartbeat} lives on the host. */
    public Path varLibJheartbeat(String node) {
        return runDir.resolve(node).resolve("varlib-jhb");
    }

    /** A node's config directory ({@code ha.cf}, {@code authkeys}, {@code haresources}) on the host. */
    public Path configDir(String node) {
        return runDir.resolve(node).resolve("ha.d");
    }

    /** The last {@code lines} lines of a node's daemon output, for failure messages. */
    public String daemonLog(String node, int lines) {
        try {
            List<String> all = Files.readAllLines(runDir.resolve(node).resolve("daemon.out"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no daemon output: " + e.getMessage() + ")";
        }
    }

    /** A condition polled by {@link #waitUntil}. */
    @FunctionalInterface
    public interface Check {
        boolean ok() throws Exception;
    }

    /**
     * Polls {@code c} every 100 ms until it holds; after {@code timeoutMs} (a hang bound, not a
     * figure) fails with both nodes' daemon output.
     */
    public void waitUntil(Check c, long timeoutMs, String what) throws Exception {
        long end = System.nanoTime() + timeoutMs * 1_000_000;
        while (System.nanoTime() < end) {
            if (c.ok()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what + "\nnode1:\n"
                + daemonLog("node1", 40) + "\nnode2:\n" + daemonLog("node2", 40));
    }

    /** Tears the lab down: every process and namespace of this lab id. */
    @Override
    public void close() throws IOException, InterruptedException {
        lab("down");
    }

    /** True when the test runs as root (the lab needs it). */
    public static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
