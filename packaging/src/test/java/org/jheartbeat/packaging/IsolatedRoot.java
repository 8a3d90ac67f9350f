package org.jheartbeat.packaging;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away copy of this machine's {@code /usr}, {@code /etc} and {@code /var} to install a package into:
 * a holder process ({@code unshare --mount --propagation private}) mounts a tmpfs and, over each of the three
 * directories, an overlayfs whose lower layer is the real directory and whose upper layer is on that tmpfs.
 * Commands run in its mount namespace with {@code nsenter -t HOLDER -m}; they see the real machine everywhere
 * else (network, processes, {@code /run}, {@code /work}). Everything they write below the three directories
 * lands on the tmpfs and vanishes with the namespace when {@link #close()} kills the holder (by pid), also
 * after a failure; nothing is mounted in the machine's own namespace. ({@code /lib} and {@code /sbin} are
 * symlinks into {@code /usr} on Debian 12.)
 */
final class IsolatedRoot implements AutoCloseable {
    static final List<String> OVERLAID = List.of("/usr", "/etc", "/var");

    private final Path mountPoint;
    private final Process holder;

    /** What a command printed (stdout and stderr merged, or kept apart) and its exit code. */
    record Result(int code, String output, String stderr) { }

    /**
     * Starts the holder and waits until the overlays are mounted.
     *
     * @throws IOException if unshare or a mount fails (the holder's message is in it)
     */
    IsolatedRoot(Path scratchParent) throws IOException, InterruptedException {
        Files.createDirectories(scratchParent);
        this.mountPoint = Files.createTempDirectory(scratchParent, "isolated-root");
        StringBuilder script = new StringBuilder("set -e; m=\"$1\"; mount -t tmpfs -o mode=0700 jhb-isolated \"$m\"; ");
        for (String d : OVERLAID) {
            String n = d.substring(1);
            script.append("mkdir -p \"$m/").append(n).append("/upper\" \"$m/").append(n).append("/work\"; ")
                    .append("mount -t overlay jhb-isolated -o lowerdir=").append(d).append(",upperdir=\"$m/").append(n)
                    .append("/upper\",workdir=\"$m/").append(n).append("/work\" ").append(d).append("; ");
        }
        // lives as long as the test JVM (its parent: unshare execs sh), also if the JVM dies without close()
        script.append("echo ready; while kill -0 $PPID 2>/dev/null; do sleep 2; done");
        ProcessBuilder pb = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "--",
                "sh", "-c", script.toString(), "holder", mountPoint.toString()).redirectErrorStream(true);
        this.holder = pb.start();
        BufferedReader r = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
        String line = r.readLine();
        if (!"ready".equals(line)) {
            StringBuilder rest = new StringBuilder(line == null ? "" : line);
            holder.waitFor(5, TimeUnit.SECONDS);
            close();
            throw new IOException("isolated root: mounting the overlays failed: " + rest);
        }
    }

    /** The holder's pid, whose mount namespace the commands enter. */
    long pid() {
        return holder.pid();
    }

    /** The nsenter prefix that runs a command in the isolated root. */
    List<String> prefix() {
        return List.of("nsenter", "-t", Long.toString(holder.pid()), "-m", "--");
    }

    /** Runs {@code argv} in the isolated root; stdout and stderr kept apart; fails after {@code timeoutS}. */
    Result run(List<String> argv, Map<String, String> env, long timeoutS) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(prefix());
        full.addAll(argv);
        return exec(full, env, timeoutS);
    }

    /** Runs {@code sh -c script} in the isolated root. */
    Result sh(String script) throws IOException, InterruptedException {
        return run(List.of("sh", "-c", script), Map.of(), 120);
    }

    /** Runs a command on the machine itself (not in the isolated root). */
    static Result exec(List<String> argv, Map<String, String> env, long timeoutS) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().putAll(env);
        Path out = Files.createTempFile("iso", ".out");
        Path err = Files.createTempFile("iso", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new IOException("timed out after " + timeoutS + " s: " + argv);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Kills the holder (the namespace, its mounts and the tmpfs go with the last process in it), removes the mount point. */
    @Override
    public void close() throws IOException, InterruptedException {
        holder.destroyForcibly();
        holder.waitFor(10, TimeUnit.SECONDS);
        if (Files.exists(mountPoint)) {
            try (Stream<Path> s = Files.walk(mountPoint)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
