package org.jheartbeat.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Debian package as an administrator meets it: lintian finds no error in
 * {@code packaging/target/jheartbeat_*_all.deb}; {@code dpkg -i} into an {@link IsolatedRoot} (this machine's
 * /usr, /etc and /var under a throw-away overlay, so the machine is left as it was even when the test fails);
 * the postinst made the daemon's class-data sharing archive, and a JVM change makes it again (the dpkg trigger);
 * there {@code hb --version}, {@code man -w hb}, the bash completion and {@code systemd-analyze verify} of the
 * unit work; the unit's {@code ExecStart} line exits 2 with {@code file:line} messages on a corrupt
 * {@code /etc/ha.d/ha.cf}; in the lab both nodes run the unit's {@code ExecStart} line, read from the installed
 * unit file (node1's daemon maps the archive), and the VIP fails over when node1 loses power; node1 comes back
 * through {@code /etc/init.d/jheartbeat start} and takes its group back, which its {@code stop} hands over
 * again; {@code dpkg --purge}
 * leaves no file behind that was not there before the install.
 */
@Tag("root")
class DebPackageIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final Path TARGET = ROOT.resolve("packaging/target");
    private static final String UNIT = "/lib/systemd/system/jheartbeat.service";
    /** A hang bound, not a figure: the lab on a loaded 2-core machine. */
    private static final long HANG_MS = 90_000;

    @Test
    void installsRunsAsTheUnitStartsItFailsOverAndPurgesClean() throws Exception {
        assumeTrue(isRoot(), "dpkg -i, mount namespaces and the lab need root");
        Path deb = findDeb();
        // the machine's own dpkg database may change meanwhile (other builds install packages): look for ours only
        long hostLogBefore = hostDpkgLogMentions();
        boolean hostHadHb = Files.exists(Path.of("/usr/sbin/hb"));

        // lintian: no errors; warnings printed (the kept ones are listed in packaging/README.md)
        IsolatedRoot.Result lint = IsolatedRoot.exec(List.of("lintian", "--tag-display-limit", "0", deb.toString()),
                Map.of(), 300);
        assertThat(lint.code()).as("lintian could not run (scripts/setup.sh installs it): %s", lint.stderr())
                .isNotEqualTo(127);
        System.out.println("lintian " + deb.getFileName() + ":\n" + lint.output());
        assertThat(lines(lint.output())).as("lintian errors").noneMatch(l -> l.startsWith("E:"));
        assertThat(lint.code()).as("lintian exit code (errors only)\n%s", lint.output()).isZero();

        try (IsolatedRoot iso = new IsolatedRoot(TARGET)) {
            // no man-db index rebuild on install (seconds; man -w does not need it)
            iso.sh("echo 'man-db man-db/auto-update boolean false' | debconf-set-selections");
            // a machine that never ran jheartbeat (lab.sh up leaves /var/lib/jheartbeat as a mount point on the
            // host; here it goes only from the overlay) with Heartbeat's /etc/ha.d, if any
            iso.sh("rm -rf /var/lib/jheartbeat /var/log/jheartbeat; mkdir -p /etc/ha.d");
            TreeSet<String> before = fileList(iso);
            String haDBefore = haDDigest(iso);

            long t0 = System.nanoTime();
            IsolatedRoot.Result install = iso.run(List.of("dpkg", "-i", deb.toString()), Map.of(), 300);
            System.out.printf("FIGURE dpkg_install_ms %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            assertThat(install.code()).as("dpkg -i\n%s%s", install.output(), install.stderr()).isZero();
            assertThat(haDDigest(iso)).as("/etc/ha.d untouched by the install").isEqualTo(haDBefore);
            assertThat(iso.sh("ls /etc/systemd/system/multi-user.target.wants/jheartbeat.service /etc/rc2.d/S*jheartbeat"
                    + " 2>/dev/null").output()).as("not enabled on install").isEmpty();
            assertThat(iso.sh("stat -c '%U:%G %a' /var/lib/jheartbeat").output().trim()).isEqualTo("root:haclient 750");

            // the daemon's class-data sharing archive, made by the postinst for this jar, JVM and flags
            assertThat(install.output() + install.stderr()).contains("cds-archive: /var/cache/jheartbeat/daemon.jsa made")
                    .contains("cds-archive: /var/cache/jheartbeat/client.jsa made"); // hb status's and cl_status's
            IsolatedRoot.Result cds = iso.run(List.of("/usr/lib/jheartbeat/cds-archive", "status"), Map.of(), 60);
            assertThat(cds.code()).as("cds-archive status after the install\n%s", cds.output() + cds.stderr()).isZero();

            // the web console: its own unit, and the self-signed pair the postinst made with openssl (hb web's TLS
            // wants a PKCS#8 key of mode 0600 owned by root)
            assertThat(install.output() + install.stderr()).contains("web console certificate /var/lib/jheartbeat/web.crt made");
            assertThat(iso.sh("stat -c '%U %a' /var/lib/jheartbeat/web.key").output().trim()).isEqualTo("root 600");
            assertThat(iso.sh("head -1 /var/lib/jheartbeat/web.key").output().trim()).isEqualTo("-----BEGIN PRIVATE KEY-----");
            assertThat(iso.sh("openssl x509 -in /var/lib/jheartbeat/web.crt -noout -ext subjectAltName").output())
                    .contains("IP Address:127.0.0.1");
            IsolatedRoot.Result webUnit = iso.run(List.of("systemd-analyze", "verify",
                    "/lib/systemd/system/jheartbeat-web.service"), Map.of(), 60);
            assertThat(webUnit.code()).as("systemd-analyze verify jheartbeat-web.service\n%s", webUnit.stderr()).isZero();
            assertThat(iso.sh("cat /lib/systemd/system/jheartbeat-web.service").output())
                    .contains("ExecStart=/usr/sbin/hb web ", "RestartPreventExitStatus=2", "OOMScoreAdjust=500");

            IsolatedRoot.Result version = iso.run(List.of("hb", "--version"), Map.of(), 60);
            assertThat(version.code()).isZero();
            assertThat(version.output()).contains("jheartbeat");
            assertThat(iso.run(List.of("man", "-w", "hb"), Map.of(), 30).output().trim())
                    .isEqualTo("/usr/share/man/man8/hb.8.gz");
            assertThat(iso.run(List.of("man", "-w", "5", "jheartbeat-ha.cf"), Map.of(), 30).code()).isZero();
            IsolatedRoot.Result complete = iso.run(List.of("bash", "-c",
                    ". /usr/share/bash-completion/completions/hb && complete -p hb"), Map.of(), 30);
            assertThat(complete.code()).as(complete.stderr()).isZero();
            assertThat(complete.output()).contains("complete").endsWith(" hb\n");

            assertThat(iso.sh("ls /usr/share/jheartbeat/prometheus").output().lines().toList()).as("Prometheus files")
                    .containsExactly("jheartbeat-alerts.test.yml", "jheartbeat-alerts.yml", "jheartbeat-dashboard.json");

            String unit = iso.sh("cat " + UNIT).output();
            assertThat(unit).contains("RestartPreventExitStatus=2", "Restart=on-failure",
                    "ExecReload=/bin/kill -HUP $MAINPID");
            IsolatedRoot.Result verify = iso.run(List.of("systemd-analyze", "verify", UNIT), Map.of(), 60);
            System.out.println("systemd-analyze verify: exit " + verify.code() + " " + verify.output() + verify.stderr());
            assertThat(verify.code()).as("systemd-analyze verify\n%s", verify.stderr()).isZero();
            assertThat(verify.output() + verify.stderr()).as("systemd-analyze verify").doesNotContain(UNIT.substring(20));
            // the init script's pid file on each node's own /var/lib/jheartbeat, not the machine's shared /run
            iso.sh("echo PIDFILE=/var/lib/jheartbeat/init.pid >> /etc/default/jheartbeat");
            String execStart = directive(unit, "ExecStart");

            corruptConfigFailsTheCheck(iso, execStart);
            runsInTheLabAndFailsOver(iso, execStart);
            aJvmUpgradeRemakesTheArchive(iso);

            IsolatedRoot.Result purge = iso.run(List.of("dpkg", "--purge", "jheartbeat"), Map.of(), 300);
            assertThat(purge.code()).as("dpkg --purge\n%s%s", purge.output(), purge.stderr()).isZero();
            TreeSet<String> after = fileList(iso);
            TreeSet<String> left = new TreeSet<>(after);
            left.removeAll(before);
            TreeSet<String> lost = new TreeSet<>(before);
            lost.removeAll(after);
            assertThat(left).as("files the purge left behind").isEmpty();
            assertThat(lost).as("files that were there before the install and are gone after the purge").isEmpty();
            assertThat(haDDigest(iso)).as("/etc/ha.d after the purge").isEqualTo(haDBefore);
            assertThat(iso.sh("test -e /var/cache/jheartbeat").code()).as("/var/cache/jheartbeat after the purge")
                    .isNotZero();
        }
        // the machine itself: no package, no file, no dpkg run on it
        assertThat(Files.readString(Path.of("/var/lib/dpkg/status"))).as("host dpkg status")
                .doesNotContain("Package: jheartbeat\n");
        assertThat(hostDpkgLogMentions()).as("jheartbeat lines in the host's /var/log/dpkg.log").isEqualTo(hostLogBefore);
        assertThat(Files.exists(Path.of("/usr/sbin/hb"))).as("host /usr/sbin/hb").isEqualTo(hostHadHb);
        assertThat(Files.exists(Path.of("/etc/init.d/jheartbeat"))).isFalse();
        assertThat(Files.exists(Path.of(UNIT))).isFalse();
    }

    /**
     * Bad input at boot: the unit's ExecStart line (the daemon checks the configuration first) must exit 2 (the
     * unit's RestartPreventExitStatus) with the file:line message on a corrupt or a missing ha.cf. The ha.cf
     * written here is in the isolated root. What systemd itself does with it: {@link SystemdUnitIT}.
     */
    private static void corruptConfigFailsTheCheck(IsolatedRoot iso, String execStart) throws Exception {
        iso.sh("cp -a /etc/ha.d /etc/ha.d.it-saved 2>/dev/null; printf 'keepalive 2\\nnode node1 node2\\nbogus_directive 7\\n'"
                + " > /etc/ha.d/ha.cf");
        IsolatedRoot.Result check = iso.run(List.of("sh", "-c", execStart), Map.of(), 60);
        System.out.println("ExecStart on a corrupt ha.cf: exit " + check.code() + "\n" + check.stderr() + check.output());
        assertThat(check.code()).as("ExecStart on a corrupt ha.cf\n%s%s", check.output(), check.stderr()).isEqualTo(2);
        assertThat(check.stderr() + check.output()).contains("ha.cf:3:");
        assertThat(check.stderr() + check.output()).doesNotContain("\tat org.");
        iso.sh("rm -f /etc/ha.d/ha.cf");
        IsolatedRoot.Result missing = iso.run(List.of("sh", "-c", execStart), Map.of(), 60);
        assertThat(missing.code()).as("ExecStart without ha.cf\n%s", missing.stderr()).isEqualTo(2);
        assertThat(missing.stderr() + missing.output()).contains("/etc/ha.d/ha.cf:0: ha.cf not found");
        iso.sh("rm -rf /etc/ha.d && mv /etc/ha.d.it-saved /etc/ha.d");
    }

    /** Both lab nodes run the unit's lines with their own /etc/ha.d; node1 loses power; node2 serves the VIP. */
    private static void runsInTheLabAndFailsOver(IsolatedRoot iso, String execStart) throws Exception {
        String id = "pk" + randomId();
        Path run = TARGET.resolve("lab-run").resolve(id);
        Map<String, String> env = new HashMap<>();
        env.put("LAB_ID", id);
        env.put("LAB_RUN", run.toString());
        env.put("LAB_KEEPALIVE", "500ms");
        env.put("LAB_DEADTIME", "3");
        env.put("LAB_AUTO_FAILBACK", "on");
        env.put("HB_JAR", ROOT.resolve("cli/target/hb.jar").toString());
        List<String> lab = new ArrayList<>(iso.prefix());
        lab.add(ROOT.resolve("lab/lab.sh").toString());
        try {
            IsolatedRoot.Result up = labRun(lab, env, "up");
            assertThat(up.code()).as("lab up\n%s", up.output() + up.stderr()).isZero();
            for (String node : List.of("node1", "node2")) {
                Path dir = run.resolve(node);
                // as systemd would: /etc/ha.d is this node's config; the daemon (it checks the config first), detached
                IsolatedRoot.Result start = labRun(lab, env, "exec", node, "sh", "-c",
                        "mount --bind \"$4\" /etc/ha.d && LABWEB_STATE_DIR=\"$1\" setsid env -u HB_JAR sh -c \"exec $2\""
                        + " </dev/null"
                        + " >>\"$3\" 2>&1 &", "start", dir.resolve("state").toString(), execStart,
                        dir.resolve("daemon.out").toString(), dir.resolve("ha.d").toString());
                assertThat(start.code()).as("%s: ExecStart\n%s", node, start.output() + start.stderr()).isZero();
            }
            long t0 = System.nanoTime();
            waitForHttp(lab, env, run, "node1");
            System.out.printf("FIGURE deb_boot_ms %d ms (node1 serves the VIP after both daemons started)%n",
                    (System.nanoTime() - t0) / 1_000_000);
            // the daemon the unit's line started (the installed jar) maps the archive the postinst made
            IsolatedRoot.Result maps = labRun(lab, env, "exec", "node1", "sh", "-c",
                    "grep -c /var/cache/jheartbeat/daemon.jsa /proc/$(cat /var/lib/jheartbeat/hb.pid)/maps");
            assertThat(maps.code()).as("node1's daemon maps daemon.jsa\n%s", maps.output() + maps.stderr()).isZero();
            IsolatedRoot.Result status = labRun(lab, env, "exec", "node2", "hb", "status");
            assertThat(status.code()).as("hb status on node2 (default state dir)\n%s", status.output() + status.stderr())
                    .isZero();
            // the Heartbeat-named wrappers, off PATH, through the /usr/lib/jheartbeat/hb link
            IsolatedRoot.Result nodes = labRun(lab, env, "exec", "node2", "/usr/lib/jheartbeat/cl_status", "listnodes");
            assertThat(nodes.code()).as("cl_status listnodes\n%s", nodes.output() + nodes.stderr()).isZero();
            assertThat(nodes.output()).contains("node1", "node2");
            assertThat(labRun(lab, env, "poweroff", "node1").code()).isZero();
            long t1 = System.nanoTime();
            waitForHttp(lab, env, run, "node2");
            System.out.printf("FIGURE deb_failover_ms %d ms (node2 serves the VIP after node1 lost power, deadtime 3 s)%n",
                    (System.nanoTime() - t1) / 1_000_000);

            // node1 returns, started by the init script (machines without systemd): it takes its group back;
            // the init script's stop hands it to node2 again
            assertThat(labRun(lab, env, "poweron", "node1").code()).isZero();
            Path dir1 = run.resolve("node1");
            IsolatedRoot.Result initStart = labRun(lab, env, "exec", "node1", "sh", "-c",
                    "mount --bind \"$1\" /etc/ha.d && LABWEB_STATE_DIR=\"$2\" /etc/init.d/jheartbeat start", "init",
                    dir1.resolve("ha.d").toString(), dir1.resolve("state").toString());
            assertThat(initStart.code()).as("/etc/init.d/jheartbeat start\n%s", initStart.output() + initStart.stderr())
                    .isZero();
            waitForHttp(lab, env, run, "node1");
            assertThat(labRun(lab, env, "exec", "node1", "/etc/init.d/jheartbeat", "status").code()).isZero();
            IsolatedRoot.Result initStop = labRun(lab, env, "exec", "node1", "/etc/init.d/jheartbeat", "stop");
            assertThat(initStop.code()).as("/etc/init.d/jheartbeat stop\n%s", initStop.output() + initStop.stderr())
                    .isZero();
            waitForHttp(lab, env, run, "node2");
            assertThat(labRun(lab, env, "exec", "node1", "/etc/init.d/jheartbeat", "status").code())
                    .as("LSB status of a stopped service").isEqualTo(3);
        } finally {
            IsolatedRoot.Result down = labRun(lab, env, "down");
            if (down.code() != 0) {
                System.out.println("lab down: " + down.output() + down.stderr());
            }
        }
    }

    /**
     * A JVM package changes files under /usr/lib/jvm (here: libjvm.so's mtime, in the isolated root): the archive's
     * key no longer matches, so {@code hb daemon} would not map it, until dpkg runs this package's file trigger
     * ({@code interest-noawait /usr/lib/jvm}), whose postinst makes it again.
     */
    private static void aJvmUpgradeRemakesTheArchive(IsolatedRoot iso) throws Exception {
        IsolatedRoot.Result touch = iso.sh("touch \"$(dirname \"$(readlink -f \"$(command -v java)\")\")/../lib/server/libjvm.so\"");
        assertThat(touch.code()).as("touch libjvm.so\n%s", touch.stderr()).isZero();
        IsolatedRoot.Result stale = iso.run(List.of("/usr/lib/jheartbeat/cds-archive", "status"), Map.of(), 60);
        assertThat(stale.code()).as("cds-archive status after the JVM changed\n%s", stale.output()).isEqualTo(1);
        IsolatedRoot.Result trigger = iso.sh("dpkg-trigger --no-await /usr/lib/jvm && dpkg --triggers-only --pending");
        assertThat(trigger.code()).as("the trigger\n%s%s", trigger.output(), trigger.stderr()).isZero();
        assertThat(trigger.output() + trigger.stderr()).contains("cds-archive: /var/cache/jheartbeat/daemon.jsa made");
        IsolatedRoot.Result fresh = iso.run(List.of("/usr/lib/jheartbeat/cds-archive", "status"), Map.of(), 60);
        assertThat(fresh.code()).as("cds-archive status after the trigger\n%s", fresh.output()).isZero();
    }

    private static void waitForHttp(List<String> lab, Map<String, String> env, Path run, String node) throws Exception {
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        while (System.nanoTime() < end) {
            IsolatedRoot.Result r = labRun(lab, env, "http");
            if (r.code() == 0 && r.output().trim().equals(node)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("timed out after " + HANG_MS + " ms waiting for " + node + " to serve the VIP\nnode1:\n"
                + tail(run.resolve("node1/daemon.out")) + "\nnode2:\n" + tail(run.resolve("node2/daemon.out")));
    }

    private static IsolatedRoot.Result labRun(List<String> lab, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(lab);
        argv.addAll(List.of(args));
        return IsolatedRoot.exec(argv, env, 180);
    }

    /** The command of a unit directive ({@code Name=...}), without systemd's prefixes (-, @, :, +, !). */
    static String directive(String unit, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + "=([-@:+!]*)(.+)$").matcher(unit);
        assertThat(m.find()).as("%s= in the unit", name).isTrue();
        return m.group(2).trim();
    }

    /** Every path below the overlaid directories, except dpkg's own bookkeeping and caches. */
    private static TreeSet<String> fileList(IsolatedRoot iso) throws Exception {
        IsolatedRoot.Result r = iso.sh("find /usr /etc /var -xdev \\( -path /var/lib/dpkg -o -path /var/cache"
                + " -o -path /var/log/dpkg.log -o -path /var/tmp \\) -prune -o -print");
        assertThat(r.code()).as(r.stderr()).isZero();
        return new TreeSet<>(lines(r.output()));
    }

    private static long hostDpkgLogMentions() throws IOException {
        Path log = Path.of("/var/log/dpkg.log");
        if (!Files.exists(log)) {
            return 0;
        }
        try (Stream<String> l = Files.lines(log, StandardCharsets.ISO_8859_1)) {
            return l.filter(x -> x.contains(" jheartbeat")).count();
        }
    }

    private static String haDDigest(IsolatedRoot iso) throws Exception {
        return iso.sh("cd /etc/ha.d && find . -type f -exec sha256sum {} + | sort").output();
    }

    private static Path findDeb() throws IOException {
        try (Stream<Path> s = Files.list(TARGET)) {
            List<Path> debs = s.filter(p -> p.getFileName().toString().matches("jheartbeat_.*_all\\.deb")).toList();
            assertThat(debs).as("the .deb built by mvn package in %s", TARGET).hasSize(1);
            return debs.get(0);
        }
    }

    private static List<String> lines(String s) {
        return s.isEmpty() ? List.of() : List.of(s.split("\n"));
    }

    private static String tail(Path p) {
        try {
            List<String> all = Files.readAllLines(p, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - 30), all.size()));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    private static String randomId() {
        String a = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom r = new SecureRandom();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            sb.append(a.charAt(r.nextInt(a.length())));
        }
        return sb.toString();
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
