package org.jheartbeat.packaging;

import java.io.IOException;
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
 * This machine's systemd (Debian 12: 252) booted as PID 1 of its own pid, mount, uts, ipc, net and cgroup
 * namespaces, on throw-away overlays of /usr, /etc and /var, with a .deb copied to {@code /root/}
 * ({@code packaging/src/test/sh/systemd-container.sh}, whose header lists what the container cannot touch).
 * Commands run in it with {@code nsenter} into all its namespaces and its root. {@link #close()} kills its PID 1
 * by pid (the kernel ends every process of the pid namespace; the mounts and the cgroup go with them), also after
 * a failure; the script does the same when the test JVM dies.
 */
final class SystemdContainer implements AutoCloseable {
    /** A hang bound for the boot, not a figure. */
    private static final long BOOT_TIMEOUT_S = 120;

    private final Path scratch;
    private final Path log;
    private final Process holder;
    private final long pid1;

    /**
     * Boots the container and waits until systemd reports the boot finished ({@code is-system-running --wait}).
     *
     * @param script the path of {@code systemd-container.sh}
     * @param scratchParent where the scratch mount point and the holder's log are made
     * @param deb the package copied to the container's {@code /root/}
     * @throws IOException if the container does not start or boot (the holder's messages are in it)
     */
    SystemdContainer(Path script, Path scratchParent, Path deb) throws IOException, InterruptedException {
        Files.createDirectories(scratchParent);
        this.scratch = Files.createTempDirectory(scratchParent, "systemd-container");
        this.log = scratch.resolveSibling(scratch.getFileName() + ".log");
        this.holder = new ProcessBuilder("sh", script.toString(), scratch.toString(), deb.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        long pid = -1;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pid < 0 && System.nanoTime() < end && holder.isAlive()) {
            for (String l : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (l.startsWith("pid1 ")) {
                    pid = Long.parseLong(l.substring(5).trim());
                }
            }
            Thread.sleep(100);
        }
        this.pid1 = pid;
        if (pid < 0) {
            close();
            throw new IOException("systemd container: no PID 1 started\n" + holderLog());
        }
        IsolatedRoot.Result boot = null;
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOOT_TIMEOUT_S);
        try {
            // before the holder's PID 1 has become systemd, systemctl in its namespaces says "offline"; until
            // systemd listens on /run/systemd/private it cannot connect ("Failed to connect to bus")
            while (System.nanoTime() < end && holder.isAlive()) {
                String comm = Files.exists(Path.of("/proc/" + pid1 + "/comm"))
                        ? Files.readString(Path.of("/proc/" + pid1 + "/comm"), StandardCharsets.UTF_8).trim() : "";
                if (comm.equals("systemd")) {
                    boot = run(List.of("systemctl", "is-system-running", "--wait"), BOOT_TIMEOUT_S);
                    String st = boot.output().trim();
                    if (!st.isEmpty() && !st.equals("offline")) {
                        break;
                    }
                }
                Thread.sleep(200);
            }
        } catch (IOException e) {
            String why = e.getMessage() + "\n" + holderLog();
            close();
            throw new IOException("systemd container: did not boot: " + why);
        }
        if (boot == null) {
            close();
            throw new IOException("systemd container: ended before it booted\n" + holderLog());
        }
        String state = boot.output().trim();
        if (!state.equals("running") && !state.equals("degraded")) {
            String why = state + boot.stderr() + "\n" + holderLog();
            close();
            throw new IOException("systemd container: boot ended '" + why + "'");
        }
        if (state.equals("degraded")) {
            System.out.println("systemd container degraded:\n"
                    + run(List.of("systemctl", "--failed", "--no-pager"), 30).output());
        }
    }

    /** The container's PID 1 as this machine numbers it. */
    long pid1() {
        return pid1;
    }

    /** The nsenter prefix that runs a command inside the container (all its namespaces, its root). */
    List<String> prefix() {
        return List.of("nsenter", "-t", Long.toString(pid1), "-m", "-u", "-i", "-n", "-p", "-C", "-r", "-w", "--");
    }

    /** Runs {@code argv} in the container; stdout and stderr kept apart; fails after {@code timeoutS}. */
    IsolatedRoot.Result run(List<String> argv, long timeoutS) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>(prefix());
        full.addAll(argv);
        return IsolatedRoot.exec(full, Map.of(), timeoutS);
    }

    /** Runs {@code sh -c script} in the container. */
    IsolatedRoot.Result sh(String script) throws IOException, InterruptedException {
        return run(List.of("sh", "-c", script), 120);
    }

    /** What the holder script printed (its errors, the unshare's). */
    String holderLog() {
        try {
            return Files.readString(log, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(no holder log: " + e.getMessage() + ")";
        }
    }

    /** Whether the holder is gone and has removed the container's cgroup (it reports failure in its log). */
    boolean ended() {
        return !holder.isAlive() && holderLog().contains("systemd-container: ended") && !holderLog().contains("could not");
    }

    /** Kills the container's PID 1 (SIGKILL, by pid), waits for the holder to remove the cgroup, removes the scratch. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (pid1 > 0) {
            ProcessHandle.of(pid1).ifPresent(ProcessHandle::destroyForcibly);
        }
        if (!holder.waitFor(60, TimeUnit.SECONDS)) {
            holder.destroyForcibly();
            holder.waitFor(10, TimeUnit.SECONDS);
        }
        if (Files.exists(scratch)) {
            try (Stream<Path> s = Files.walk(scratch)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
