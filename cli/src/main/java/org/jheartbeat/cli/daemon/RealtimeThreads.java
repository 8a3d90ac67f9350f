package org.jheartbeat.cli.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Real-time scheduling for the threads that keep the heartbeat on time, as Heartbeat 3.0.6 runs its
 * processes ({@code realtime on}, its default, ha.cf(5): SCHED_RR priority 1, measured with {@code chrt -p}
 * on Debian's heartbeat). Only the named threads get it: the cluster loop ({@code hb-loop}), the media
 * event loop ({@code hb-media-*}) and the JVM's {@code VM Thread} (which runs the serial collector's
 * pauses the loop waits for). Every other thread stays SCHED_OTHER, so the resource scripts the group
 * workers fork inherit normal scheduling, as Heartbeat puts its children back to normal time.
 *
 * <p>Measured effect (bench/stress-deaths.sh, docs/benchmarks.md "False deaths under stress"): under
 * stress-ng on 2 CPUs the largest gap between two beats drops from about 460 ms (nice 0) to about 130 ms.
 *
 * <p>Java has no call for {@code sched_setscheduler}; each thread is set by {@code chrt --rr --pid 1 TID}
 * (util-linux), run once at start from the calling thread. Needs CAP_SYS_NICE and no seccomp filter
 * against real-time policies (systemd's {@code RestrictRealtime=} must be off); without them the daemon
 * says so in one WARN line and runs on with normal scheduling, as Heartbeat does.
 */
final class RealtimeThreads {
    /** The SCHED_RR priority, as Heartbeat 3.0.6 (the lowest real-time priority: above every normal task). */
    static final int PRIORITY = 1;
    /** Runs chrt; {@code run} gives its stdin /dev/null and kills it at the timeout. */
    private static final OsProcessRunner RUNNER = new OsProcessRunner();

    private RealtimeThreads() {
    }

    /** Whether a thread name (its {@code comm}, up to 15 characters) is one the beats depend on. */
    static boolean beatsDependOn(String comm) {
        return comm.equals("hb-loop") || comm.startsWith("hb-media") || comm.equals("VM Thread");
    }

    /** A thread of this process: its id and its name as the kernel has it ({@code /proc/self/task/TID/comm}). */
    record Task(long tid, String comm) { }

    /**
     * The threads of the process whose {@code task} directory is given (normally {@code /proc/self/task})
     * that {@code wanted} accepts, in directory order.
     *
     * @throws IOException if the directory cannot be listed (a thread that ends meanwhile is skipped)
     */
    static List<Task> select(Path taskDir, Predicate<String> wanted) throws IOException {
        List<Task> out = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path t : tasks) {
                String name = t.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                String comm;
                try {
                    comm = Files.readString(t.resolve("comm"), StandardCharsets.UTF_8).strip();
                } catch (IOException gone) {
                    continue;
                }
                if (wanted.test(comm)) {
                    out.add(new Task(Long.parseLong(name), comm));
                }
            }
        }
        return out;
    }

    /**
     * Puts this process's beat threads ({@link #beatsDependOn}) on SCHED_RR {@link #PRIORITY}.
     *
     * @return the names of the threads set, or an empty list and the reason in {@code failure[0]} when
     *         it could not be done (no chrt, no permission); never throws
     */
    static List<String> apply(String[] failure) {
        List<String> done = new ArrayList<>();
        try {
            for (Task t : select(Path.of("/proc/self/task"), RealtimeThreads::beatsDependOn)) {
                ProcessResult r = RUNNER.run(new ProcessSpec(List.of("chrt", "--rr", "--pid",
                        Integer.toString(PRIORITY), Long.toString(t.tid())), Map.of(), Duration.ofSeconds(5)));
                if (r.timedOut() || r.exitCode() != 0) {
                    String said = (r.stdout() + r.stderr()).strip();
                    failure[0] = "chrt --rr --pid " + PRIORITY + " " + t.tid() + " (" + t.comm() + "): "
                            + (said.isEmpty() ? "exit " + (r.timedOut() ? "timeout" : r.exitCode()) : said);
                    return List.of();
                }
                done.add(t.comm());
            }
        } catch (IOException e) {
            failure[0] = e.getMessage();
            return List.of();
        }
        return done;
    }
}
