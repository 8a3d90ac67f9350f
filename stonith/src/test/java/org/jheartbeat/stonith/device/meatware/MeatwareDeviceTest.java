package org.jheartbeat.stonith.device.meatware;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.core.testkit.FakeClock;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MeatwareDeviceTest {
    @TempDir
    Path dir;
    private final ExecutorService pool = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private MeatwareDevice device(Duration timeout) throws Exception {
        MeatwareDevice d = new MeatwareDevice(dir.resolve("run"), timeout);
        d.configure(Map.of("hostlist", "nodea nodeb"));
        return d;
    }

    private CompletableFuture<StonithResult> resetAsync(MeatwareDevice d, String node) {
        return CompletableFuture.supplyAsync(() -> d.reset(ResetRequest.GENERIC_RESET, node), pool);
    }

    private Path request(String node) {
        return MeatwareDevice.requestFile(dir.resolve("run"), node);
    }

    @Test
    void confirmedInProcessFromAnotherThread() throws Exception {
        MeatwareDevice d = device(Duration.ofMinutes(1));
        assertThat(d.confirm("nodeb")).isFalse(); // nothing pending
        var result = resetAsync(d, "NodeB");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(request("nodeb")));
        assertThat(Files.getPosixFilePermissions(request("nodeb")))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
        assertThat(d.confirm("NODEB")).isTrue();
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(StonithResult.OK);
        assertThat(request("nodeb")).doesNotExist();
    }

    @Test
    void confirmedFromSeparateProcessThroughTheFiles() throws Exception {
        MeatwareDevice d = device(Duration.ofMinutes(1));
        var result = resetAsync(d, "nodea");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(request("nodea")));
        var r = new OsProcessRunner().run(ProcessSpec.of(Duration.ofSeconds(10), "sh", "-c",
                "cp \"$0/meatware.nodea\" \"$0/meatware.nodea.ack\"", dir.resolve("run").toString()));
        assertThat(r.succeeded()).isTrue();
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(StonithResult.OK);
        assertThat(MeatwareDevice.ackFile(dir.resolve("run"), "nodea")).doesNotExist();
    }

    @Test
    void confirmByFileHelperAndStaleAckIgnored() throws Exception {
        Path run = dir.resolve("run");
        MeatwareDevice d = device(Duration.ofMinutes(1));
        assertThatThrownBy(() -> MeatwareDevice.confirmByFile(run, "nodea"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no meatware reset");
        Files.writeString(MeatwareDevice.ackFile(run, "nodea"), "stale-token\n");
        var result = resetAsync(d, "nodea");
        await().atMost(Duration.ofSeconds(10)).until(() -> Files.exists(request("nodea")));
        assertThat(MeatwareDevice.ackFile(run, "nodea")).doesNotExist(); // stale ack removed first
        Files.writeString(MeatwareDevice.ackFile(run, "nodea"), "wrong-token\n");
        assertThat(result).isNotDone();
        MeatwareDevice.confirmByFile(run, "NodeA");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(StonithResult.OK);
    }

    @Test
    void timesOutWhenNobodyConfirms() throws Exception {
        MeatwareDevice d = device(Duration.ofMillis(600));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodea")).isEqualTo(StonithResult.TIMEOUT);
        assertThat(request("nodea")).doesNotExist();
    }

    @Test
    void timesOutOnTheInjectedClockAfterPollingEvery200Ms() throws Exception {
        FakeClock clock = new FakeClock();
        List<Duration> pauses = new ArrayList<>();
        MeatwareDevice d = new MeatwareDevice(dir.resolve("run"), Duration.ofMinutes(1), clock, pause -> {
            pauses.add(pause);
            clock.advance(pause);
        });
        d.configure(Map.of("hostlist", "nodea"));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodea")).isEqualTo(StonithResult.TIMEOUT);
        assertThat(pauses).hasSize(300).containsOnly(MeatwareDevice.POLL_INTERVAL);
        assertThat(request("nodea")).doesNotExist();
    }

    @Test
    void anAckWrittenDuringTheWaitConfirmsAtTheNextPoll() throws Exception {
        Path run = dir.resolve("run");
        FakeClock clock = new FakeClock();
        List<Duration> pauses = new ArrayList<>();
        MeatwareDevice d = new MeatwareDevice(run, Duration.ofHours(24), clock, pause -> {
            pauses.add(pause);
            clock.advance(pause);
            if (pauses.size() == 3) {
                try {
                    MeatwareDevice.confirmByFile(run, "nodea"); // the operator, 0.6 s into the wait
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        });
        d.configure(Map.of("hostlist", "nodea"));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodea")).isEqualTo(StonithResult.OK);
        assertThat(pauses).hasSize(3);
        assertThat(MeatwareDevice.ackFile(run, "nodea")).doesNotExist();
    }

    @Test
    void timeoutParameterUnknownHostAndStatus() throws Exception {
        MeatwareDevice d = new MeatwareDevice(dir.resolve("run"), Duration.ofHours(1));
        d.configure(Map.of("hostlist", "nodea", "timeout", "1"));
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodez")).isEqualTo(StonithResult.BADHOST);
        assertThat(d.reset(ResetRequest.GENERIC_RESET, "nodea")).isEqualTo(StonithResult.TIMEOUT);
        assertThat(d.status()).isEqualTo(StonithResult.OK);
        assertThatThrownBy(() -> d.configure(Map.of("hostlist", "../etc"))).hasMessageContaining("not a host name");
        assertThatThrownBy(() -> d.configure(Map.of("hostlist", "a", "timeout", "x"))).hasMessageContaining("'timeout'");
    }
}
