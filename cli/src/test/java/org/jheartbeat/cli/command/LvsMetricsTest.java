package org.jheartbeat.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.jheartbeat.cli.daemon.Daemon;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.runtime.CheckFactory;
import org.jheartbeat.director.runtime.DirectorDaemon;
import org.jheartbeat.director.userspace.KernelModelSchedulingFactory;
import org.jheartbeat.director.userspace.UserspaceBackend;
import org.jheartbeat.director.userspace.UserspaceOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The director's endpoint against a running director (the user-space table on loopback, the standard connect
 * check against a real listening socket): the real is 1 while it accepts, 0 once its check fails and it is taken
 * out, 1 again when it is back.
 */
class LvsMetricsTest {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    @TempDir
    Path dir;

    @Test
    void aRealTakenOutByItsCheckShowsZeroAndBackOne() throws Exception {
        ServerSocket real = new ServerSocket(0, 50, LO);
        int rport = real.getLocalPort();
        int vport = freePort();
        int mport = freePort();
        Path cf = dir.resolve("ldirectord.cf");
        Files.writeString(cf, "checktimeout=1\ncheckinterval=1\nquiescent=no\nvirtual=127.0.0.1:" + vport
                + "\n\treal=127.0.0.1:" + rport + " masq 3\n\tchecktype=connect\n\tscheduler=wlc\n");
        Files.writeString(dir.resolve("jheartbeat.yaml"), "director:\n  metrics:\n    listen:\n      "
                + Daemon.unameN() + ": 127.0.0.1:" + mport + "\n");
        UserspaceBackend table = new UserspaceBackend(new KernelModelSchedulingFactory(), UserspaceOptions.defaults());
        String series = "{protocol=\"tcp\",real=\"127.0.0.1:" + rport + "\",virtual=\"127.0.0.1:" + vport + "\"}";
        try (table; DirectorDaemon d = new DirectorDaemon(new LdirectordParser().parse(cf).config().orElseThrow(),
                table, CheckFactory.standard(), dir.resolve("lvs.sock"), a -> { })) {
            Optional<LvsMetrics> m = LvsMetrics.start(dir, Daemon.unameN(), d.director());
            assertThat(m).isPresent();
            try (LvsMetrics metrics = m.get()) {
                assertThat(metrics.port()).isEqualTo(mport);
                String up = awaitLine(mport, "jheartbeat_director_real_up" + series + " 1.0");
                assertThat(up).contains("jheartbeat_director_up 1.0")
                        .contains("jheartbeat_director_real_weight" + series + " 3.0")
                        .contains("jheartbeat_director_real_check_up" + series + " 1.0")
                        .contains("jheartbeat_director_real_connections{protocol=\"tcp\",real=\"127.0.0.1:" + rport
                                + "\",state=\"active\",virtual=\"127.0.0.1:" + vport + "\"} 0.0");
                real.close();
                String down = awaitLine(mport, "jheartbeat_director_real_up" + series + " 0.0");
                assertThat(down).contains("jheartbeat_director_real_weight" + series + " 0.0")
                        .contains("jheartbeat_director_real_check_up" + series + " 0.0");
                real = new ServerSocket();
                real.setReuseAddress(true);
                real.bind(new InetSocketAddress(LO, rport), 50);
                awaitLine(mport, "jheartbeat_director_real_up" + series + " 1.0");
            }
        } finally {
            real.close();
        }
    }

    @Test
    void noEntryForThisNodeMeansNoEndpointAndAnInvalidFileNoneEither() throws Exception {
        Files.writeString(dir.resolve("jheartbeat.yaml"), "director:\n  metrics:\n    listen:\n      othernode:"
                + " 127.0.0.1:9811\n");
        assertThat(LvsMetrics.start(dir, "thisnode", null)).isEmpty();
        Files.writeString(dir.resolve("jheartbeat.yaml"), "director:\n  metrics:\n    listen:\n      thisnode:"
                + " localhost:9811\n");
        assertThat(LvsMetrics.start(dir, "thisnode", null)).isEmpty();
        assertThat(LvsMetrics.start(dir.resolve("none"), "thisnode", null)).isEmpty();
    }

    /** Scrapes until {@code line} is in the answer (the check runs every second; the bound only catches a hang). */
    private static String awaitLine(int port, String line) throws Exception {
        HttpClient c = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String last = "";
        for (int i = 0; i < 600; i++) {
            HttpResponse<String> r = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            last = r.body();
            if (r.statusCode() == 200 && last.lines().anyMatch(line::equals)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no line " + line + " in 60 s; last scrape:\n" + last);
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, LO)) {
            return s.getLocalPort();
        }
    }
}
