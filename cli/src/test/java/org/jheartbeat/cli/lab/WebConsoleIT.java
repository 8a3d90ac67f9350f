package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.web.WebUsers;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The web console in a real headless Chromium (Debian's chromium and chromedriver, driven by Selenium), on node2 of
 * a two-node lab with STONITH (each node's simulated APC UPS) and the web group's labweb monitored every second:
 * the page shows node1's power loss on the timeline as a failover span in the right order (node-dead, fenced through
 * the UPS, the group started, then served: its first monitor passed) with a duration within the failover the client
 * measured (power-off to the VIP answering), without a reload (server-sent events); node2's journal holds the
 * same steps in order, numbered without a gap; on node1, powered on with no daemon, {@code hb events} reads the files,
 * and its restart keeps the journal and numbers on; the Standby button, after its confirmation page, moves the group to node1; a read-only user
 * sees no action button, and forged actions (no token, or a reader's) are refused with 403. One lab, several
 * assertions, to keep its CI time modest. Screenshots of the views go to docs/images/.
 */
@Tag("root")
class WebConsoleIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** The lab's web server, monitored every second (a Heartbeat-class script is watched only when asked). */
    static final String SERVED_BY = "labweb::op_monitor_interval=1s";

    @Test
    void theConsoleShowsAFailoverMovesAGroupAndKeepsReadersReadOnly() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "chromium and chromium-driver (scripts/setup.sh installs them)");
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        Path jar = Path.of(System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString()));
        // labweb watched every second, so the group has a served step; the VIP (IPaddr) is not watched
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_AUTO_FAILBACK", "off",
                "LAB_STONITH", "apcsmart", "LAB_HARESOURCES", "node1 " + FailoverIT.VIP + "/24/eth0 " + SERVED_BY))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            assertThat(FailoverIT.waitFor(lab, "node1", Figures.HANG_MS)).as(lab.daemonLog("node1", 40)).isNotNegative();

            Path work = lab.runDir().resolve("web");
            Files.createDirectories(work);
            Path users = work.resolve("web-users");
            WebUsers.put(users, "root", "root-password".toCharArray(), new java.security.SecureRandom());
            WebUsers.put(users, "bob", "bob-password".toCharArray(), new java.security.SecureRandom());
            Path etc = Files.createDirectories(work.resolve("etc"));
            Files.writeString(etc.resolve("passwd"), "root:x:0:0::/root:/bin/sh\nbob:x:1500:1500::/home/bob:/bin/sh\n");
            Files.writeString(etc.resolve("group"), "root:x:0:\nbob:x:1500:\nhaclient:x:1600:bob\n");
            // the peer's hb over ssh: the lab's jar against node1's state directory
            Path peerHb = work.resolve("peer-hb");
            Files.writeString(peerHb, "#!/bin/sh\nexec java -jar " + jar + " \"$@\" --state-dir "
                    + lab.runDir().resolve("node1/state") + "\n");
            peerHb.toFile().setExecutable(true);
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            List<String> argv = new ArrayList<>(List.of(root.resolve("packaging/src/bin/hb").toString(), "web",
                    "--config-dir", lab.configDir("node2").toString(), "--state-dir",
                    lab.runDir().resolve("node2/state").toString(), "--node-name", "node2",
                    "--listen", "127.0.0.1:" + port, "--users-file", users.toString(), "--etc", etc.toString(),
                    "--ssh", "ip netns exec " + lab.namespace("node2") + " " + lab.sshCommand(), "--peer", "198.18.1.1",
                    "--remote-hb", peerHb.toString()));
            Path webLog = work.resolve("web.out");
            ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(webLog.toFile());
            pb.environment().put("HB_JAR", jar.toString());
            Process web = pb.start();
            WebDriver driver = null;
            try {
                String base = "http://127.0.0.1:" + port;
                lab.waitUntil(() -> Files.readString(webLog).contains("web: console of node2"), Figures.HANG_MS,
                        "hb web to listen");
                driver = browser(work);

                login(driver, base, "root", "root-password");
                assertThat(driver.findElement(By.id("who")).getText()).isEqualTo("root (admin)");
                WebDriver d0 = driver;
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> d0.findElement(By.id("nodes")).getText().contains("node1 active"));
                assertThat(driver.findElement(By.id("caveat")).getText()).contains("no quorum");
                screenshot(driver, root, "web-cluster.png");

                // node1 loses power while the timeline is open: the span appears without a reload
                driver.get(base + "/timeline?window=15m");
                assertThat(lab.lab("poweroff", "node1").code()).isZero();
                long failoverMs = FailoverIT.waitFor(lab, "node2", Figures.HANG_MS);
                assertThat(failoverMs).as("node2 takes over\n%s", lab.daemonLog("node2", 40)).isNotNegative();
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> !d0.findElements(By.cssSelector("li.failover .step[data-step=served]")).isEmpty());
                assertThat(driver.findElement(By.tagName("body")).getAttribute("data-refreshed"))
                        .as("the page body was replaced by the live update, not reloaded").isNotNull();
                WebElement span = driver.findElement(By.cssSelector("li.failover"));
                List<String> steps = span.findElements(By.cssSelector(".step")).stream()
                        .map(e -> e.getAttribute("data-step")).toList();
                assertThat(steps).as(span.getText()).containsExactly("node-dead", "fenced", "started", "served");
                assertThat(span.getText()).contains("fenced node1").contains("served " + FailoverIT.VIP + "/24/eth0");
                long spanMs = Long.parseLong(span.getAttribute("data-duration-ms"));
                Figures.print("web_failover_span_ms", spanMs, "ms", "node-dead, fenced through the UPS, started, to the"
                        + " group served (its first monitor passed), as the console's timeline shows it");
                Figures.print("web_failover_client_ms", failoverMs, "ms", "power-off to the VIP answering the client");
                assertThat(spanMs).as(span.getText()).isPositive().isLessThanOrEqualTo(failoverMs);
                assertThat(span.getText()).contains("node2 declared node1 dead");
                survivorsJournalHasTheFencedFailover(lab, failoverMs);
                driver.get(base + "/timeline?window=1m"); // the seconds of the failover apart, for the picture
                screenshot(driver, root, "web-timeline.png");

                // node1 back (auto_failback off: node2 keeps the group); Standby on node2's console moves it
                assertThat(lab.lab("poweron", "node1").code()).isZero();
                // no daemon on node1: hb events reads its files and says so
                Lab.Result offline = OperatorCommandsIT.hbExactly(lab, "node1", "events", "--state-dir",
                        lab.runDir().resolve("node1").resolve("state").toString(), "--kind", "daemon-start,group-started");
                assertThat(offline.code()).as(offline.output()).isZero();
                assertThat(offline.output()).contains("no daemon answers on").contains(" node1 daemon-start node1")
                        .contains(" node1 group-started " + FailoverIT.VIP);
                long lastSeq = LabJournal.events(lab, "node1").stream().mapToLong(ClusterEvent::seq).max().orElseThrow();
                assertThat(lab.lab("start", "node1").code()).isZero();
                lab.waitUntil(() -> lab.lab("status", "node2").output().contains("node1        active"), Figures.HANG_MS,
                        "node2 to see node1 active");
                // started again, node1's journal keeps what it had and numbers on
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).until(() -> LabJournal.events(lab, "node1")
                        .stream().anyMatch(e -> e.kind() == EventKind.DAEMON_START && e.seq() > lastSeq));
                List<ClusterEvent> kept = LabJournal.events(lab, "node1");
                assertThat(kept.get(0).seq()).isEqualTo(1);
                assertThat(kept.stream().filter(e -> e.kind() == EventKind.DAEMON_START).count()).as("%s", kept)
                        .isEqualTo(2);
                driver.get(base + "/");
                click(driver, By.id("act-standby")); // the live update may replace the page's body meanwhile
                assertThat(driver.findElement(By.id("moves")).getText()).contains("moves from node2 to node1");
                screenshot(driver, root, "web-confirm.png");
                driver.findElement(By.id("confirm")).click();
                assertThat(driver.findElement(By.id("outcome")).getText()).startsWith("Done.");
                lab.waitUntil(() -> "node1".equals(lab.http()), Figures.HANG_MS, "node1 to serve after the standby");
                assertThat(Files.readString(webLog)).contains("web root asked standby (standby all 120)");

                // the peer's journal, over ssh: node1's daemon start shows on node2's console
                // (its second start, after the power-off), and node2's journal names the console's user as who asked
                driver.get(base + "/timeline?window=15m");
                await().atMost(Figures.HANG).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                        .until(() -> d0.findElement(By.id("events")).getText().split("node1 daemon-start", -1).length > 2
                                && d0.findElement(By.id("events")).getText().matches("(?s).*node2 standby all .*web root via.*"));

                // a forged action from the admin's browser (no token) is refused
                assertThat(post(driver, "action=takeover")).isEqualTo(403);
                assertThat(Files.readString(webLog)).contains("refused /action takeover from 127.0.0.1: no CSRF token (user root)");

                click(driver, By.cssSelector("header form button"));
                login(driver, base, "bob", "bob-password");
                assertThat(driver.findElement(By.id("who")).getText()).isEqualTo("bob (read-only)");
                assertThat(driver.findElements(By.cssSelector("[id^=act-]"))).isEmpty();
                assertThat(driver.findElement(By.id("read-only")).isDisplayed()).isTrue();
                String token = driver.findElement(By.cssSelector("header input[name=csrf]")).getAttribute("value");
                assertThat(post(driver, "action=takeover&csrf=" + token)).isEqualTo(403);
                assertThat(Files.readString(webLog)).contains("refused takeover for read-only user bob");
                assertThat(lab.http()).isEqualTo("node1");

                // the director's view, from a fixed table (this lab runs no director), for its picture
                try (org.jheartbeat.cli.web.WebServer demo = org.jheartbeat.cli.web.ConsoleFixture.start(work)) {
                    String demoBase = "http://127.0.0.1:" + demo.port();
                    login(driver, demoBase, "root", org.jheartbeat.cli.web.ConsoleFixture.PASSWORD);
                    driver.get(demoBase + "/director");
                    assertThat(driver.findElement(By.id("director")).getText()).contains("198.18.2.3:80");
                    screenshot(driver, root, "web-director.png");
                }
            } finally {
                if (driver != null) {
                    driver.quit();
                }
                web.destroy();
                if (!web.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    web.destroyForcibly();
                }
                System.out.println("hb web output:\n" + Files.readString(webLog));
            }
        }
    }

    /**
     * node2's own journal after it fenced node1 through the UPS and took its group: node-dead, fence-asked,
     * fence-confirmed, group-starting and group-started in that order, numbered without a gap, the death's silence at
     * least the lab's deadtime (3 s) and every duration within the client's power-off-to-service time.
     */
    private static void survivorsJournalHasTheFencedFailover(Lab lab, long failoverMs) throws Exception {
        List<ClusterEvent> after = LabJournal.events(lab, "node2");
        int dead = LabJournal.indexOf(after, 0, EventKind.NODE_DEAD, "node1");
        int fenceAsked = LabJournal.indexOf(after, dead, EventKind.FENCE_ASKED, "node1");
        int fenced = LabJournal.indexOf(after, fenceAsked, EventKind.FENCE_CONFIRMED, "node1");
        int starting = LabJournal.indexOf(after, fenced, EventKind.GROUP_STARTING, FailoverIT.VIP);
        int started = LabJournal.indexOf(after, starting, EventKind.GROUP_STARTED, FailoverIT.VIP);
        assertThat(List.of(dead, fenceAsked, fenced, starting, started)).as("%s", after).doesNotContain(-1);
        assertThat(after.get(dead).durationMillis()).as("%s", after.get(dead)).isBetween(3_000L, failoverMs);
        assertThat(after.get(fenced).durationMillis()).as("%s", after.get(fenced)).isBetween(0L, failoverMs);
        assertThat(after.get(started).durationMillis()).as("%s", after.get(started)).isBetween(0L, failoverMs);
        assertThat(after.get(starting).cause()).isNotEmpty();
        for (int i = 1; i < after.size(); i++) {
            assertThat(after.get(i).seq()).as("%s", after).isEqualTo(after.get(i - 1).seq() + 1);
        }
        Figures.print("journal_fence_ms", after.get(fenced).durationMillis(), "ms",
                "fence-confirmed's duration (asked to confirmed) in node2's journal");
        Figures.print("journal_group_start_ms", after.get(started).durationMillis(), "ms",
                "group-started's duration in node2's journal");
    }

    /** Headless Chromium through Debian's chromedriver, with a fresh profile and nothing phoning home. */
    static WebDriver browser(Path work) throws Exception {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,900", "--user-data-dir=" + Files.createTempDirectory(work, "chromium-profile"));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        WebDriver d = new ChromeDriver(service, o);
        d.manage().timeouts().implicitlyWait(Duration.ofSeconds(5)).pageLoadTimeout(Figures.HANG);
        return d;
    }

    /** Clicks what {@code by} finds, again if a live update replaced it between the find and the click. */
    static void click(WebDriver d, By by) {
        await().atMost(Figures.HANG).ignoreException(org.openqa.selenium.StaleElementReferenceException.class)
                .until(() -> {
                    d.findElement(by).click();
                    return true;
                });
    }

    static void login(WebDriver d, String base, String user, String password) {
        d.get(base + "/login");
        d.findElement(By.id("user")).sendKeys(user);
        d.findElement(By.id("password")).sendKeys(password);
        d.findElement(By.id("login")).click();
        d.findElement(By.id("nodes"));
    }

    /** POSTs a form to /action from the page (same origin, its cookie), as a forged request would; the status. */
    static long post(WebDriver d, String form) {
        Object status = ((JavascriptExecutor) d).executeAsyncScript("var done = arguments[arguments.length - 1];"
                + "fetch('/action', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
                + " body: arguments[0]}).then(function (r) { done(r.status); }, function (e) { done(-1); });", form);
        return ((Number) status).longValue();
    }

    static void screenshot(WebDriver d, Path root, String name) throws Exception {
        File f = ((TakesScreenshot) d).getScreenshotAs(OutputType.FILE);
        Path images = Files.createDirectories(root.resolve("docs/images"));
        Files.copy(f.toPath(), images.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
