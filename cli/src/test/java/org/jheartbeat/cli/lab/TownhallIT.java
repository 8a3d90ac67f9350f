package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The town hall (README "The town hall", {@code lab/townhall/}) with real Debian
 * services: node1's web group (Apache with PHP rendering rows of a MariaDB table) and node2's mail
 * group (Exim SMTP, Dovecot IMAP), each on its own ext4 loop partition replicated to the peer by
 * {@code sync.yaml}, MariaDB copied consistently through the {@code pre:} dump hook. From the
 * client: node1 powered off, its page served by node2 with every row committed before the last
 * successful sync; node2's mail answered throughout; failback with the row written on node2; and at
 * no time two MAC addresses answering ARP for one service address.
 */
@Tag("root")
class TownhallIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final String JAR = System.getProperty("hb.jar", ROOT.resolve("cli/target/hb.jar").toString());
    private static final String WEB = "198.18.0.100";
    private static final String MAIL = "198.18.0.101";
    private static final Pattern MAC = Pattern.compile("reply from (\\S+) \\[([0-9A-Fa-f:]+)\\]");

    private static boolean installed() {
        return Set.of("/usr/sbin/mariadbd", "/usr/sbin/apache2", "/usr/sbin/exim4", "/usr/sbin/dovecot",
                "/usr/lib/ocf/resource.d/heartbeat/Filesystem", "/usr/sbin/proftpd",
                "/usr/share/tomcat10/bin/catalina.sh", "/usr/sbin/smbd", "/usr/bin/smbclient", "/usr/sbin/spamd",
                "/usr/bin/spamc").stream().allMatch(p -> Files.isExecutable(Path.of(p)));
    }

    private static Map<String, String> env(String haresources) {
        Map<String, String> e = new HashMap<>();
        e.put("LAB_NODE_INIT", ROOT.resolve("lab/townhall/node-init.sh").toString());
        e.put("LAB_PRIVATE_RUN", "1");
        e.put("LAB_HARESOURCES", haresources);
        e.put("LAB_KEEPALIVE", "500ms");
        e.put("LAB_DEADTIME", "3");
        e.put("LAB_AUTO_FAILBACK", "on");
        return e;
    }

    private static String haresources() throws IOException {
        return Files.readAllLines(ROOT.resolve("lab/townhall/haresources")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(Collectors.joining("\n"));
    }

    @Test
    void theWebGroupMovesToNode2WithItsCommittedRowsAndBackWhileMailNeverStops() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces, loop devices)");
        assumeTrue(installed(), "needs mariadb-server, apache2, exim4, dovecot-imapd, resource-agents (scripts/setup.sh)");
        try (Lab lab = new Lab(env(haresources()))) {
            configure(lab);
            long t0 = System.nanoTime();
            start(lab, "node1");
            start(lab, "node2");
            lab.waitUntil(() -> page(lab).contains("served-by: node1\nrow 1 welcome to the town hall"),
                    Figures.HANG_MS, "node1's PHP page with the first row");
            lab.waitUntil(() -> smtpBanner(lab), Figures.HANG_MS, "node2's SMTP banner");
            lab.waitUntil(() -> webExtras(lab, "node1") && mailExtras(lab), Figures.HANG_MS,
                    "ProFTPD and Tomcat on node1, the domain logon and spamd on node2");
            Figures.print("townhall_services_up_ms", (System.nanoTime() - t0) / 1_000_000, "ms",
                    "both daemons started to the PHP page and the SMTP banner answering");

            // rows committed through PHP, a message delivered through SMTP and read back by IMAP
            for (int i = 1; i <= 3; i++) {
                assertThat(get(lab, "http://" + WEB + "/?add=before-" + i)).startsWith("added ");
            }
            assertThat(deliver(lab, "first message")).isZero();
            lab.waitUntil(() -> imapSearch(lab).contains("* SEARCH 1"), Figures.HANG_MS, "the message in IMAP");
            assertThat(imapFetch(lab, 1)).contains("first message");

            // wait for a successful web sync that started after the last commit
            Instant committed = Instant.now();
            lab.waitUntil(() -> lastSuccess(lab, "node1", "web").map(s -> s.isAfter(committed)).orElse(false),
                    Figures.HANG_MS, "a web sync after the commits");

            Sampler sampler = new Sampler(lab);
            Thread th = new Thread(sampler, "townhall-sampler");
            th.start();
            try {
                assertThat(lab.lab("poweroff", "node1").code()).isZero();
                long off = System.nanoTime();
                lab.waitUntil(() -> page(lab).startsWith("served-by: node2"), Figures.HANG_MS,
                        "node1's PHP page served by node2");
                Figures.print("townhall_web_takeover_ms", (System.nanoTime() - off) / 1_000_000, "ms",
                        "node1 powered off to its PHP page answering from node2 (deadtime 3 s, dump loaded)");
                String onNode2 = page(lab);
                assertThat(onNode2).contains("row 1 welcome to the town hall", "row 2 before-1", "row 3 before-2",
                        "row 4 before-3");
                assertThat(imapFetch(lab, 1)).contains("first message");
                lab.waitUntil(() -> webExtras(lab, "node2"), Figures.HANG_MS, "ProFTPD and Tomcat on node2");

                // written on node2 meanwhile: a row and a message
                assertThat(get(lab, "http://" + WEB + "/?add=written-on-node2")).startsWith("added ");
                assertThat(deliver(lab, "second message")).isZero();

                assertThat(lab.lab("poweron", "node1").code()).isZero();
                long on = System.nanoTime();
                start(lab, "node1");
                lab.waitUntil(() -> page(lab).startsWith("served-by: node1"), Figures.HANG_MS,
                        "the PHP page back on node1");
                Figures.print("townhall_web_failback_ms", (System.nanoTime() - on) / 1_000_000, "ms",
                        "node1 powered on (daemon started) to its PHP page answering from node1 again");
                assertThat(page(lab)).contains("row 4 before-3", "written-on-node2");
                lab.waitUntil(() -> imapSearch(lab).contains("* SEARCH 1 2"), Figures.HANG_MS, "both messages");
            } finally {
                sampler.stop.set(true);
                th.join(30_000);
            }
            Figures.print("townhall_samples", sampler.samples, "samples",
                    "both addresses on both nodes, ARP from the client, node2's SMTP banner, through power-off and failback");
            System.out.println("townhall: MACs that answered ARP from the client: " + sampler.macs);
            assertThat(sampler.samples).isPositive();
            assertThat(sampler.doubleAnswers).as("two MACs answering one address: %s", sampler.doubleAnswers).isEmpty();
            assertThat(sampler.mailFailures).as("node2's SMTP did not answer at: %s", sampler.mailFailures).isEmpty();
            assertThat(sampler.macs.get(MAIL)).as("MACs answering for node2's address").containsExactly("02:00:c6:12:00:02");
            assertThat(status(lab, "node2")).contains("node2        active  (this node)");
            lab.waitUntil(() -> webExtras(lab, "node1"), Figures.HANG_MS, "ProFTPD and Tomcat back on node1");

            // the domain controller follows the mail group: node2 powered off, alice logs on through node1
            assertThat(badLogon(lab)).as("a wrong password is refused by the domain controller").isTrue();
            assertThat(lab.lab("poweroff", "node2").code()).isZero();
            long mailOff = System.nanoTime();
            lab.waitUntil(() -> lab.holds("node1", MAIL) && smtpBanner(lab) && mailExtras(lab), Figures.HANG_MS,
                    "node2's mail group, its domain logon and spamd served by node1");
            Figures.print("townhall_mail_takeover_ms", (System.nanoTime() - mailOff) / 1_000_000, "ms",
                    "node2 powered off to alice's domain logon and spamd answering from node1");
            assertThat(imapFetch(lab, 1)).contains("first message");
            assertThat(badLogon(lab)).isTrue();
            assertThat(lab.lab("poweron", "node2").code()).isZero();
            start(lab, "node2");
            lab.waitUntil(() -> lab.holds("node2", MAIL) && !lab.holds("node1", MAIL) && mailExtras(lab),
                    Figures.HANG_MS, "the mail group and the domain controller back on node2");

            // every service watched (lab/townhall/jheartbeat.yaml: heartbeat_class: yes, one restart allowed):
            // MariaDB, a resource.d script, killed on node1 is restarted there; killed again, the group moves
            String db1 = mariadbPid(lab, "node1");
            long kill = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", db1).code()).isZero();
            lab.waitUntil(() -> !mariadbPid(lab, "node1").isEmpty() && !mariadbPid(lab, "node1").equals(db1)
                    && page(lab).contains("served-by: node1\nrow 1 welcome") && MonitorIT.restartedInPlace(lab, "townhall-db"),
                    Figures.HANG_MS, "MariaDB restarted on node1 (the restart returned) and the page served from it");
            Figures.print("townhall_db_restart_ms", (System.nanoTime() - kill) / 1_000_000, "ms",
                    "kill -9 of mariadbd on node1 until the PHP page answers from node1 again (monitor every 5 s)");
            assertThat(lab.daemonLog("node1", 400)).contains("Restarting resource townhall-db in place");
            String db2 = mariadbPid(lab, "node1");
            kill = System.nanoTime();
            assertThat(lab.lab("exec", "node1", "kill", "-9", db2).code()).isZero();
            lab.waitUntil(() -> page(lab).startsWith("served-by: node2"), Figures.HANG_MS,
                    "the web group moved to node2 after MariaDB's second failure");
            Figures.print("townhall_db_move_ms", (System.nanoTime() - kill) / 1_000_000, "ms",
                    "second kill -9 of mariadbd on node1 until node2 serves the PHP page");
            assertThat(mariadbPid(lab, "node1")).isEmpty();
        }
    }

    /** ProFTPD (the clerk's minutes) and Tomcat on the web address, both answering from {@code node}. */
    private static boolean webExtras(Lab lab, String node) throws Exception {
        Lab.Result ftp = lab.lab("client", "curl", "-s", "-m", "5", "--user", "clerk:townhall", "ftp://" + WEB + "/");
        String tomcat = get(lab, "http://" + WEB + ":8080/townhall/");
        return ftp.code() == 0 && ftp.output().contains("minutes.txt") && lab.holds(node, WEB)
                && tomcat.startsWith("served-by: " + node + "\nTomcat ");
    }

    /**
     * alice's logon to the TOWNHALL domain (NTLM against the domain controller's account database) fetching the
     * logon script from [netlogon], and spamd classifying a message, on the mail address.
     */
    private static boolean mailExtras(Lab lab) throws Exception {
        Lab.Result logon = lab.lab("client", "smbclient", "-m", "SMB3", "-t", "5", "//" + MAIL + "/netlogon",
                "-U", "TOWNHALL\\alice%townhall", "-c", "get logon.bat -");
        Lab.Result spam = lab.lab("client", "sh", "-c", "printf 'Subject: council\\n\\nmeeting at 8\\n' | timeout 10"
                + " spamc -x -t 5 -d " + MAIL + " -c; [ $? -le 1 ]");
        return logon.code() == 0 && logon.output().contains("rem town hall logon script") && spam.code() == 0;
    }

    /** A logon with a wrong password is refused (the check above proves the account database answers). */
    private static boolean badLogon(Lab lab) throws Exception {
        Lab.Result r = lab.lab("client", "smbclient", "-m", "SMB3", "-t", "5", "//" + MAIL + "/netlogon",
                "-U", "TOWNHALL\\alice%wrong", "-c", "ls");
        return r.code() != 0 && r.output().contains("NT_STATUS_LOGON_FAILURE");
    }

    /** The pid of a live mariadbd in the node's own /run, or "". */
    private static String mariadbPid(Lab lab, String node) throws Exception {
        Lab.Result r = lab.lab("exec", node, "sh", "-c", "p=$(cat /run/mysqld/mysqld.pid) && kill -0 $p && echo $p");
        return r.code() == 0 ? r.output().trim() : "";
    }

    @Test
    void aDataPartitionThatDoesNotMountStopsTheGroupBeforeItsServices() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces, loop devices)");
        assumeTrue(installed(), "needs mariadb-server, apache2, exim4, dovecot-imapd, resource-agents (scripts/setup.sh)");
        String broken = "node1 " + WEB + "/24/eth0 Filesystem::/var/lib/townhall/missing.img::/srv/web::ext4::loop"
                + " townhall-db lsb:apache2";
        try (Lab lab = new Lab(env(broken))) {
            configure(lab);
            for (String n : List.of("node1", "node2")) {
                Files.writeString(lab.configDir(n).resolve("haresources"), broken + "\n");
                Files.delete(lab.configDir(n).resolve("sync.yaml"));
            }
            start(lab, "node1");
            start(lab, "node2");
            lab.waitUntil(() -> status(lab, "node1").contains("stays stopped on both nodes"), Figures.HANG_MS,
                    "the group given up on both nodes");
            String st = status(lab, "node1");
            st.lines().filter(l -> l.contains("failed to start here")).forEach(l -> System.out.println("townhall: " + l.trim()));
            assertThat(st).contains("resource Filesystem::/var/lib/townhall/missing.img::/srv/web::ext4::loop failed"
                    + " to start");
            assertThat(lab.daemonLog("node1", 400)).contains("Giving up resources due to failure of"
                    + " Filesystem::/var/lib/townhall/missing.img::/srv/web::ext4::loop");
            for (String n : List.of("node1", "node2")) {
                assertThat(lab.holds(n, WEB)).as("%s holds %s", n, WEB).isFalse();
                Lab.Result db = lab.lab("exec", n, "/bin/sh", "-c", "test -e /run/mysqld/mysqld.pid || test -e"
                        + " /run/apache2/apache2.pid; echo $?");
                assertThat(db.output().trim()).as("%s: no MariaDB or Apache pid file", n).endsWith("1");
            }
        }
    }

    /**
     * Samples both service addresses on both nodes ({@link Lab#heldByBoth}), the ARP answers the
     * client gets for them, and node2's SMTP banner.
     */
    private static final class Sampler implements Runnable {
        final Lab lab;
        final AtomicBoolean stop = new AtomicBoolean();
        volatile int samples;
        final List<String> doubleAnswers = new ArrayList<>();
        final List<String> mailFailures = new ArrayList<>();
        final Map<String, Set<String>> macs = new HashMap<>();

        Sampler(Lab lab) {
            this.lab = lab;
        }

        @Override
        public void run() {
            // one ARP request per address (both at once), every reply within 1 s counted
            String script = "arping -c 3 -w 1 -I eth0 " + WEB + " > /tmp/$$.w & arping -c 3 -w 1 -I eth0 " + MAIL
                    + "; wait; cat /tmp/$$.w; rm -f /tmp/$$.w; exec 3<>/dev/tcp/" + MAIL + "/25 && head -c 3 <&3 && echo";
            while (!stop.get()) {
                try {
                    for (String ip : List.of(WEB, MAIL)) {
                        if (lab.heldByBoth(ip)) {
                            synchronized (this) {
                                doubleAnswers.add(Instant.now() + " " + ip + " held by both nodes");
                            }
                        }
                    }
                    Lab.Result r = lab.lab("client", "timeout", "10", "bash", "-c", script);
                    Map<String, Set<String>> seen = new HashMap<>();
                    Matcher m = MAC.matcher(r.output());
                    while (m.find()) {
                        seen.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2).toLowerCase());
                    }
                    synchronized (this) {
                        seen.forEach((ip, set) -> {
                            macs.computeIfAbsent(ip, k -> new TreeSet<>()).addAll(set);
                            if (set.size() > 1) {
                                doubleAnswers.add(Instant.now() + " " + ip + " " + set);
                            }
                        });
                        if (!r.output().contains("220")) {
                            mailFailures.add(Instant.now().toString());
                        }
                    }
                    samples++;
                } catch (IOException e) {
                    mailFailures.add(Instant.now() + " " + e.getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void configure(Lab lab) throws Exception {
        Lab.Result r = lab.run(List.of(ROOT.resolve("lab/townhall/configure.sh").toString()), 60);
        assertThat(r.code()).as(r.output()).isZero();
    }

    private static void start(Lab lab, String node) throws Exception {
        Lab.Result r = lab.lab("start", node);
        assertThat(r.code()).as(r.output()).isZero();
    }

    private static String get(Lab lab, String url) throws Exception {
        Lab.Result r = lab.lab("client", "curl", "-s", "-f", "-m", "5", url);
        return r.code() == 0 ? r.output() : "";
    }

    private static String page(Lab lab) throws Exception {
        return get(lab, "http://" + WEB + "/");
    }

    private static boolean smtpBanner(Lab lab) throws Exception {
        return lab.lab("client", "timeout", "5", "bash", "-c", "exec 3<>/dev/tcp/" + MAIL + "/25 && head -c 3 <&3")
                .output().contains("220");
    }

    private static int deliver(Lab lab, String body) throws Exception {
        Path msg = Files.createTempFile(lab.runDir(), "mail", ".txt");
        Files.writeString(msg, "Subject: " + body + "\r\n\r\n" + body + "\r\n", StandardCharsets.US_ASCII);
        return lab.lab("client", "curl", "-s", "-m", "10", "smtp://" + MAIL, "--mail-from", "clerk@townhall.lab",
                "--mail-rcpt", "alice@townhall.lab", "-T", msg.toString()).code();
    }

    private static String imapSearch(Lab lab) throws Exception {
        return lab.lab("client", "curl", "-s", "-m", "10", "-u", "alice:townhall", "imap://" + MAIL + "/INBOX?ALL")
                .output();
    }

    private static String imapFetch(Lab lab, int uid) throws Exception {
        return lab.lab("client", "curl", "-s", "-m", "10", "-u", "alice:townhall",
                "imap://" + MAIL + "/INBOX;UID=" + uid).output();
    }

    private static java.util.Optional<Instant> lastSuccess(Lab lab, String node, String job) {
        Properties p = new Properties();
        try (var in = Files.newBufferedReader(lab.varLibJheartbeat(node).resolve("sync/" + job + ".state"),
                StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            return java.util.Optional.empty();
        }
        String s = p.getProperty("lastSuccess");
        return s == null ? java.util.Optional.empty() : java.util.Optional.of(Instant.parse(s));
    }

    private static String status(Lab lab, String node) {
        try {
            return lab.lab("status", node).output();
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }
}
