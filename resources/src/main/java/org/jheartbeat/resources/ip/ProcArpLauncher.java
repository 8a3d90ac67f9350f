package org.jheartbeat.resources.ip;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.exec.StartedProcess;
import org.jheartbeat.core.time.MonotonicClock;

/**
 * {@link ArpLauncher} for Linux and iputils {@code arping}: the program sends its first probe right
 * before it first blocks in its event loop ({@code poll}; seen with strace on iputils 20221126: the
 * netlink look-ups, the two timerfds, the first {@code sendto} of the ARP, then {@code poll} until
 * the next interval), so once {@code /proc/PID} shows the program itself ({@code comm} = the
 * program's name, i.e. after exec) asleep in {@code poll}, its first ARP has been handed to the
 * interface. Checked every 0.5 ms: {@code /proc/PID/wchan} (a {@code poll} kernel function) or,
 * where the kernel hides symbols, {@code /proc/PID/syscall} (the poll/ppoll system-call numbers of
 * x86_64 and aarch64). A program that exited counts as confirmed if it exited with 0.
 */
public final class ProcArpLauncher implements ArpLauncher {
    /** poll and ppoll system-call numbers per {@code os.arch}, as listed by the Linux system-call tables. */
    private static final Set<String> POLL_CALLS = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> Set.of("7", "271");
        case "aarch64", "arm64" -> Set.of("73");
        default -> Set.of();
    };
    private static final long CHECK_NANOS = 500_000L;

    private final OsProcessRunner runner;
    private final MonotonicClock clock;

    /** A launcher on the daemon's process runner with its defaults (64 KiB of stderr kept). */
    public ProcArpLauncher() {
        this(new OsProcessRunner());
    }

    /** @param runner starts {@code arping} (the project's one process runner) */
    public ProcArpLauncher(OsProcessRunner runner) {
        this(runner, MonotonicClock.system());
    }

    /**
     * @param runner starts {@code arping}
     * @param clock  where the wait for the confirmation ({@code maxWait}) is measured
     */
    public ProcArpLauncher(OsProcessRunner runner, MonotonicClock clock) {
        this.runner = runner;
        this.clock = clock;
    }

    /**
     * {@inheritDoc}
     *
     * <p>The program is started through {@link OsProcessRunner#start}, which kills it if it still runs
     * after {@link GratuitousArp#timeoutFor GratuitousArp.timeoutFor(1)} (its linger, with slack).
     */
    @Override
    public Launched launch(List<String> argv, Duration maxWait) throws IOException {
        StartedProcess p = runner.start(ProcessSpec.of(GratuitousArp.timeoutFor(1), argv));
        String name = Path.of(argv.get(0)).getFileName().toString();
        long deadline = clock.nanoTime() + maxWait.toNanos();
        boolean confirmed = false;
        while (true) {
            if (!p.isAlive()) {
                confirmed = p.onExit().join() == 0;
                break;
            }
            Path proc = Path.of("/proc", Long.toString(p.pid()));
            if (inEventLoop(name, read(proc.resolve("comm")), read(proc.resolve("wchan")),
                    read(proc.resolve("syscall")), POLL_CALLS)) {
                confirmed = true;
                break;
            }
            if (clock.nanoTime() - deadline >= 0) {
                break;
            }
            LockSupport.parkNanos(CHECK_NANOS);
        }
        return new Running(p, confirmed);
    }

    /**
     * Pure decision: is the process the program itself, asleep in poll?
     *
     * @param program   the program's file name ({@code arping})
     * @param comm      {@code /proc/PID/comm} (empty if unreadable)
     * @param wchan     {@code /proc/PID/wchan} (empty or {@code 0} if hidden)
     * @param syscall   {@code /proc/PID/syscall} (first field: the number of the call it sleeps in)
     * @param pollCalls the poll/ppoll numbers of this architecture
     * @return {@code true} if its first ARP has been sent
     */
    static boolean inEventLoop(String program, String comm, String wchan, String syscall, Set<String> pollCalls) {
        // comm is cut at 15 characters by the kernel
        String want = program.length() > 15 ? program.substring(0, 15) : program;
        if (!comm.strip().equals(want)) {
            return false;
        }
        if (wchan.contains("poll")) {
            return true;
        }
        String[] fields = syscall.strip().split(" ");
        return fields.length > 1 && pollCalls.contains(fields[0]);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private record Running(StartedProcess process, boolean confirmed) implements Launched {
        @Override
        public int awaitExit(Duration timeout) throws InterruptedException {
            return process.awaitExit(timeout);
        }

        @Override
        public String stderr() {
            return process.stderr();
        }

        @Override
        public void kill() {
            process.kill();
        }
    }
}
