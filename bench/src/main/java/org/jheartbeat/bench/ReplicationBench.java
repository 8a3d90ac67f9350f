package org.jheartbeat.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.sync.config.ReplicationJobSpec;
import org.jheartbeat.sync.config.SyncConfig;
import org.jheartbeat.sync.config.SyncConfigParser;
import org.jheartbeat.sync.replication.ReplicationRunner;
import org.jheartbeat.sync.replication.RsyncCommand;
import org.jheartbeat.sync.replication.RunOutcome;
import org.jheartbeat.sync.replication.RunTrigger;

/**
 * The jheartbeat side of {@code bench/replication-bench.sh}: one long-lived JVM, as in the daemon,
 * that runs {@link ReplicationRunner} on request so the script can interleave it with a bare rsync.
 * Not a test: it prints wall-clock times.
 *
 * <pre>usage: ReplicationBench SRC_DIR TARGET_DIR STATE_DIR [PEER]</pre>
 * Without PEER the job has {@code target: TARGET_DIR} (the copy lands in
 * {@code TARGET_DIR/<SRC_DIR without leading />}). With PEER (an ssh destination such as
 * {@code root@10.0.0.2}) the job targets the peer: SRC_DIR is copied to the same path there. The
 * system property {@code bench.ssh} replaces the remote shell ({@code sync.yaml ssh:}).
 *
 * <p>Protocol on stdout/stdin: first the exact rsync argv the runner uses, one word a line,
 * between {@code argv-begin} and {@code argv-end} (the script runs the same argv bare); then, after
 * a warm-up (two runs of a 200-file tree below STATE_DIR, so class loading is not counted, as in a
 * daemon that has run before), {@code ready}. Each {@code run} line read from stdin runs the job
 * once and answers {@code SECONDS RESULT FILES_TRANSFERRED} (seconds from {@link System#nanoTime});
 * end of input ends the program (exit 1 when a run failed).
 */
public final class ReplicationBench {
    private ReplicationBench() {
    }

    /**
     * @param args SRC_DIR TARGET_DIR STATE_DIR [PEER]
     * @throws IOException if stdin or the warm-up tree fails
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: ReplicationBench SRC_DIR TARGET_DIR STATE_DIR [PEER]");
            System.exit(2);
        }
        Path src = Path.of(args[0]).toAbsolutePath().normalize();
        Path target = Path.of(args[1]).toAbsolutePath().normalize();
        Path state = Path.of(args[2]).toAbsolutePath().normalize();
        Optional<String> peer = args.length == 4 ? Optional.of(args[3]) : Optional.empty();
        List<String> ssh = System.getProperty("bench.ssh") == null ? SyncConfig.DEFAULT_SSH
                : SyncConfigParser.shellSplit(System.getProperty("bench.ssh"));
        SyncConfig cfg = new SyncConfig(null, state, ssh,
                peer.map(p -> Map.of("bench-peer", p)).orElse(Map.of()), List.of(), List.of());
        ReplicationRunner runner = new ReplicationRunner(cfg, "bench-node", Clock.systemUTC());
        ReplicationJobSpec job = job("bench", src, peer.isPresent() ? Optional.empty() : Optional.of(target));

        System.out.println("argv-begin");
        RsyncCommand.build("rsync", job, src, peer.orElse(null), ssh, false).forEach(System.out::println);
        System.out.println("argv-end");

        Path warmSrc = Files.createDirectories(state.resolve("warm-up/src"));
        for (int i = 0; i < 200; i++) {
            Files.writeString(warmSrc.resolve("f" + i), "warm-up " + i + "\n");
        }
        ReplicationJobSpec warm = job("warm-up", warmSrc, Optional.of(state.resolve("warm-up/target")));
        for (int i = 0; i < 2; i++) {
            if (!runner.run(warm, null, RunTrigger.MANUAL, null).ok()) {
                System.err.println("warm-up run failed: " + runner.store().read("warm-up").message());
                System.exit(1);
            }
        }
        System.out.println("ready");
        System.out.flush();

        boolean ok = true;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (!line.strip().equals("run")) {
                continue;
            }
            long t0 = System.nanoTime();
            RunOutcome o = runner.run(job, "bench-peer", RunTrigger.MANUAL, null);
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "%.4f %s %d%n", s, o.result(), o.filesTransferred());
            System.out.flush();
            if (!o.ok()) {
                System.err.println("run failed: " + o.message());
                ok = false;
            }
        }
        System.exit(ok ? 0 : 1);
    }

    private static ReplicationJobSpec job(String name, Path src, Optional<Path> target) {
        return new ReplicationJobSpec(name, "bench", List.of(src), target, ReplicationJobSpec.DEFAULT_SCHEDULE, true,
                List.of(), false, ReplicationJobSpec.DEFAULT_MAX_LOSS, 0, Duration.ZERO, Duration.ofHours(1), 0);
    }
}
