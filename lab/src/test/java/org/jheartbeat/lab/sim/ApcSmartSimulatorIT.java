package org.jheartbeat.lab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.jheartbeat.stonith.device.apcsmart.ApcSmartDevice;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The simulator on the UPS end of a socat PTY pair, driven by the real cluster-glue client
 * ({@code /usr/sbin/stonith -t apcsmart}) and by our {@link ApcSmartDevice} on the host end.
 */
class ApcSmartSimulatorIT {
    /** How long to wait for what must happen: only a hang takes this long (CI is a busy 2-core machine). */
    private static final Duration HANG = Duration.ofSeconds(60);
    @TempDir
    Path dir;
    private Process socat;
    private ApcSmartSimulator sim;
    private Path host;
    private Path powerLog;

    @BeforeEach
    void pair() throws Exception {
        // the simulator's own fidelity check (about 70 s) is a drill: the product's STONITH path runs through
        // the simulator in StonithIT on every run; ./test.sh -Djhb.drills=true (docs/testing.md) runs this too
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("jhb.drills"),
                "the simulator's fidelity check runs with -Djhb.drills=true (docs/testing.md)");
        Path ups = dir.resolve("ups");
        host = dir.resolve("host");
        socat = new ProcessBuilder("socat", "PTY,link=" + ups + ",rawer", "PTY,link=" + host + ",rawer")
                .redirectErrorStream(true).redirectOutput(dir.resolve("socat.log").toFile()).start();
        await().atMost(HANG).until(() -> Files.exists(ups) && Files.exists(host));
        powerLog = dir.resolve("power.log");
        Files.createFile(powerLog);
        sim = new ApcSmartSimulator(ups, "echo off >> " + powerLog, "echo on >> " + powerLog,
                dir.resolve("state"), 10);
        sim.start();
    }

    @AfterEach
    void unpair() throws Exception {
        if (sim != null) {
            sim.close();
        }
        if (socat != null) {
            socat.destroyForcibly();          // by pid, never pkill
            socat.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private int stonith(String... op) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("stonith", "-t", "apcsmart", "-p", host + " node1"));
        argv.addAll(List.of(op));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("stonith.log").toFile())).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("stonith " + argv + " hung");
        }
        return p.exitValue();
    }

    private List<String> powerEvents() throws IOException {
        return Files.readAllLines(powerLog);
    }

    @Test
    void realClusterGlueClientAcceptsTheSimulator() throws Exception {
        assertThat(stonith("-S")).isZero();
        assertThat(stonith("-T", "reset", "node1")).isZero();
        await().atMost(HANG).until(() -> powerEvents().equals(List.of("off", "on")));
        assertThat(Files.readString(dir.resolve("state"))).isEqualTo("on\n");

        assertThat(stonith("-T", "off", "node1")).isZero();
        assertThat(sim.outletOn()).isFalse();
        assertThat(Files.readString(dir.resolve("state"))).isEqualTo("off\n");
        assertThat(stonith("-T", "on", "node1")).isZero();
        assertThat(sim.outletOn()).isTrue();
        await().atMost(HANG).until(() -> powerEvents().equals(List.of("off", "on", "off", "on")));

        assertThat(stonith("-T", "reset", "node9")).isEqualTo(StonithResult.BADHOST.code());
    }

    @Test
    void realClientResetWhileOutputOffSwitchesItBackOn() throws Exception {
        assertThat(stonith("-T", "off", "node1")).isZero();
        assertThat(stonith("-T", "reset", "node1")).isZero();
        assertThat(sim.outletOn()).isTrue();
        await().atMost(HANG).until(() -> powerEvents().equals(List.of("off", "on")));
    }

    @Test
    void ourDeviceDrivesTheSimulator() throws Exception {
        ApcSmartDevice device = new ApcSmartDevice();
        device.configure(Map.of("ttydev", host.toString(), "hostlist", "node1"));
        assertThat(device.status()).isEqualTo(StonithResult.OK);
        assertThat(device.reset(ResetRequest.GENERIC_RESET, "NODE1")).isEqualTo(StonithResult.OK);
        await().atMost(HANG).until(() -> powerEvents().equals(List.of("off", "on")));
        assertThat(device.reset(ResetRequest.POWER_OFF, "node1")).isEqualTo(StonithResult.OK);
        assertThat(sim.outletOn()).isFalse();
        assertThat(device.reset(ResetRequest.POWER_ON, "node1")).isEqualTo(StonithResult.OK);
        assertThat(sim.outletOn()).isTrue();
        assertThat(device.reset(ResetRequest.GENERIC_RESET, "node9")).isEqualTo(StonithResult.BADHOST);
        // the real client still works after us: lock released, UPS delays restored
        assertThat(stonith("-S")).isZero();
    }

    @Test
    void unpluggedUpsFailsWithinBoundedTime() throws Exception {
        ApcSmartDevice device = new ApcSmartDevice();
        device.configure(Map.of("ttydev", host.toString(), "hostlist", "node1"));
        sim.close();
        long t0 = System.nanoTime();
        assertThat(device.status()).isEqualTo(StonithResult.OOPS);
        assertThat(device.reset(ResetRequest.GENERIC_RESET, "node1")).isEqualTo(StonithResult.OOPS);
        assertThat(device.reset(ResetRequest.POWER_OFF, "node1")).isEqualTo(StonithResult.OOPS);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        System.out.printf("FIGURE apcsmart_unplugged_three_ops_ms=%d ms (status, reset, off on an unplugged UPS)%n",
                took.toMillis());
        // each gives up on its own init deadline (3 s: ApcSmartDialogueTest, on a fake clock), none waits
        // for the operation timeout; the wall time beyond that is the machine's
        assertThat(took).isLessThan(ApcSmartDevice.DEFAULT_OPERATION_TIMEOUT);
        assertThat(stonith("-S")).isEqualTo(StonithResult.OOPS.code()); // what the real plugin says too
    }
}
