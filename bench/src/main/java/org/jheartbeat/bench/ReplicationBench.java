package org.jheartbeat.bench;

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
import org.jheartbeat.sync.replication.RunOutcome;
import org.jheartbeat.sync.replication.RunTrigger;

/**
 * Times {@link ReplicationRunner} on a directory: a first full copy, then a rerun with no change.
 * Used by {@code bench/replication-bench.sh}, which compares it with a bare
 * {@code rsync -a --delete}. Not a test: it prints wall-clock times.
 *
 * <pre>usage: ReplicationBench SRC_DIR TARGET_DIR STATE_DIR [PEER]</pre>
 * Without PEER the job has {@code target: TARGET_DIR} (the copy lands in
 * {@code TARGET_DIR/<SRC_DIR without leading />}). With PEER (an ssh destination such as
 * {@code root@10.0.0.2}) the job targets the peer: SRC_DIR is copied to the same path there. The
 * system property {@code bench.ssh} replaces the remote shell ({@code sync.yaml ssh:}).
 */
public final class ReplicationBench {
    private ReplicationBench() {
    }

    /**
     * @param args SRC_DIR TARGET_DIR STATE_DIR [PEER]
     */
    public static void main(String[] args) {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: ReplicationBench SRC_DIR TARGET_DIR STATE_DIR [PEER]");
            System.exit(2);
        }
        Path src = Path.of(args[0]).toAbsolutePath().normalize();
        Path target = Path.of(args[1]).toAbsolutePath().normalize();
        Path state = Path.of(args[2]).toAbsolutePath().normalize();
        Optional<String> peer = args.length == 4 ? Optional.of(args[3]) : Optional.empty();
        ReplicationJobSpec job = new ReplicationJobSpec("bench", "bench", List.of(src),
                peer.isPresent() ? Optional.empty() : Optional.of(target), ReplicationJobSpec.DEFAULT_SCHEDULE, true,
                List.of(), false, ReplicationJobSpec.DEFAULT_MAX_LOSS, 0, Duration.ZERO, Duration.ofHours(1), 0);
        List<String> ssh = System.getProperty("bench.ssh") == null ? SyncConfig.DEFAULT_SSH
                : SyncConfigParser.shellSplit(System.getProperty("bench.ssh"));
        SyncConfig cfg = new SyncConfig(null, state, ssh,
                peer.map(p -> Map.of("bench-peer", p)).orElse(Map.of()), List.of(job), List.of());
        ReplicationRunner runner = new ReplicationRunner(cfg, "bench-node", Clock.systemUTC());
        boolean ok = true;
        for (String phase : List.of("full copy", "no-change rerun")) {
            long t0 = System.nanoTime();
            RunOutcome o = runner.run(job, "bench-peer", RunTrigger.MANUAL, null);
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "jheartbeat %-16s %8.3f s  %s: %d entries, %d files transferred, %d bytes%n",
                    phase, s, o.result(), o.filesTotal(), o.filesTransferred(), o.bytesTransferred());
            ok &= o.ok();
        }
        System.exit(ok ? 0 : 1);
    }
}
