package org.jheartbeat.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The unit as systemd itself runs it (a corrupt or missing config at boot fails the unit
 * once, with the config check's file:line messages in the journal, and it does not restart in a loop). PID 1 of
 * this machine is not systemd, so a {@link SystemdContainer} boots Debian's systemd 252 as PID 1 of its own
 * namespaces; the .deb is installed there with {@code dpkg -i} (its postinst talks to that systemd, and makes the
 * daemon's class-data sharing archive, which the daemon systemd starts maps). Then:
 * <ul>
 * <li>a corrupt {@code /etc/ha.d/ha.cf}: {@code systemctl start jheartbeat} fails, the journal of the unit has
 * {@code ha.cf:3:}, the unit ends {@code failed} with the main process's exit status 2, and two RestartSec
 * later still {@code NRestarts=0} with the message logged once;</li>
 * <li>no {@code ha.cf}: the same with {@code ha.cf:0: ha.cf not found};</li>
 * <li>a valid configuration: {@code systemctl start} returns with the daemon running ({@code Type=notify}: at
 * its {@code READY=1}; its pid file names the unit's MainPID, Nice=-10 applied); it outlives two
 * {@code WatchdogSec=} (its loop sends {@code WATCHDOG=1}); {@code systemctl reload} reaches the daemon as SIGHUP
 * (its log line), same MainPID, no restart;</li>
 * <li>the daemon killed with SIGKILL is restarted by systemd ({@code NRestarts=1}, a new MainPID): the restart
 * machinery the bad-config cases must not trigger does work here;</li>
 * <li>a daemon that stops petting (SIGSTOP: a stopped process is a loop that hangs, without a test hook in the
 * daemon) is killed by systemd's watchdog ({@code Watchdog timeout}, {@code Failed with result 'watchdog'}) and
 * restarted ({@code NRestarts=2}, a new MainPID);</li>
 * <li>{@code systemctl stop}: the daemon exits cleanly on SIGTERM ({@code Result=success});</li>
 * <li>throughout, ha.cf {@code watchdog} names a FIFO standing in for the kernel device (a real one would reset
 * this machine), read by a transient unit: the daemons wrote pets, and a single {@code 'V'}, last: the clean
 * stop's magic close, none at the SIGKILL or the watchdog's SIGABRT.</li>
 * </ul>
 * Afterwards the machine's hostname, the sysctls systemd would set, its dpkg database and its cgroup tree are as
 * they were.
 */
@Tag("root")
class SystemdUnitIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final Path TARGET = ROOT.resolve("packaging/target");
    private static final Path SCRIPT = ROOT.resolve("packaging/src/test/sh/systemd-container.sh");
    private static final String UNIT = "jheartbeat";
    /** A hang bound, not a figure. */
    private static final long HANG_MS = 90_000;
    /** The FIFO that stands in for the kernel watchdog device, and the file its reader appends what it reads to. */
    private static final String WATCHDOG_FIFO = "/run/jhb-watchdog.fifo";
    private static final String WATCHDOG_BYTES = "/run/jhb-watchdog.bytes";
    /** Global sysctls a booting systemd (PID 1, systemd-sysctl) would write; the container must leave them. */
    private static final List<String> HOST_SYSCTLS = List.of("fs/file-max", "fs/nr_open", "fs/protected_fifos",
            "fs/protected_hardlinks", "fs/protected_regular", "fs/protected_symlinks", "kernel/core_pattern",
            "kernel/hostname", "kernel/printk");

    @Test
    void systemdFailsABadConfigOnceRestartsACrashAndReloads() throws Exception {
        assumeTrue(isRoot(), "namespaces, mounts and a cgroup need root");
        Path deb = findDeb();
        Map<String, String> sysctlsBefore = hostSysctls();
        String hostDpkgBefore = hostDpkgJheartbeat();

        long t0 = System.nanoTime();
        SystemdContainer c = new SystemdContainer(SCRIPT, TARGET, deb);
        try {
            System.out.printf("FIGURE systemd_container_boot_ms %d ms (unshare to is-system-running)%n",
                    (System.nanoTime() - t0) / 1_000_000);
            IsolatedRoot.Result pid1 = c.run(List.of("ps", "-p", "1", "-o", "comm="), 10);
            assertThat(pid1.output().trim()).as("the container's PID 1").isEqualTo("systemd");
            System.out.println("container: " + c.run(List.of("systemctl", "--version"), 10).output().lines().findFirst()
                    .orElse("") + ", PID 1 is pid " + c.pid1() + " here");

            c.sh("echo 'man-db man-db/auto-update boolean false' | debconf-set-selections");
            c.sh("rm -rf /etc/ha.d /var/lib/jheartbeat /var/log/jheartbeat && mkdir /etc/ha.d");
            IsolatedRoot.Result install = c.sh("dpkg -i /root/" + deb.getFileName());
            assertThat(install.code()).as("dpkg -i\n%s%s", install.output(), install.stderr()).isZero();
            System.out.println("dpkg -i in the container:\n" + install.output() + install.stderr());
            assertThat(show(c, "LoadState")).isEqualTo("loaded");
            assertThat(show(c, "UnitFileState")).as("not enabled on install").isEqualTo("disabled");
            assertThat(show(c, "ActiveState")).as("not started on install").isEqualTo("inactive");
            long restartS = restartSeconds(show(c, "RestartUSec"));

            // a corrupt ha.cf: an unknown directive on line 3
            c.sh("printf 'keepalive 2\\nnode node1 node2\\nbogus_directive 7\\n' > /etc/ha.d/ha.cf");
            failsOnceWithoutRestart(c, restartS, "/etc/ha.d/ha.cf:3:");
            // no ha.cf at all
            c.sh("rm -f /etc/ha.d/ha.cf");
            failsOnceWithoutRestart(c, restartS, "/etc/ha.d/ha.cf:0: ha.cf not found");

            runsReloadsRestartsAndStops(c);
        } finally {
            c.close();
        }
        assertThat(c.ended()).as("the container's holder removed its cgroup\n%s", c.holderLog()).isTrue();
        assertThat(ProcessHandle.of(c.pid1()).isPresent()).as("the container's PID 1 is gone").isFalse();
        assertThat(hostSysctls()).as("the machine's sysctls").isEqualTo(sysctlsBefore);
        assertThat(hostDpkgJheartbeat()).as("the machine's dpkg status for jheartbeat").isEqualTo(hostDpkgBefore);
    }

    /**
     * The unit on a bad configuration: {@code systemctl start} fails, the unit is {@code failed} with the main
     * process's exit status 2 ({@code RestartPreventExitStatus=2}), the journal has {@code expected} once, and
     * after two RestartSec there was no restart.
     */
    private static void failsOnceWithoutRestart(SystemdContainer c, long restartS, String expected) throws Exception {
        c.sh("systemctl reset-failed " + UNIT + " 2>/dev/null; true");
        String cursor = cursor(c);
        IsolatedRoot.Result start = c.run(List.of("systemctl", "start", UNIT), HANG_MS / 1000);
        System.out.println("systemctl start on a bad config (" + expected + "): exit " + start.code() + " "
                + start.stderr().trim());
        assertThat(start.code()).as("systemctl start on a bad config").isNotZero();
        waitFor(c, "ActiveState", "failed");
        Thread.sleep(2 * restartS * 1000);
        Map<String, String> s = showAll(c, "ActiveState", "Result", "ExecMainCode", "ExecMainStatus", "NRestarts");
        IsolatedRoot.Result journal = c.run(List.of("journalctl", "-u", UNIT, "--after-cursor=" + cursor,
                "--no-pager", "-o", "cat"), 60);
        IsolatedRoot.Result all = c.run(List.of("journalctl", "--after-cursor=" + cursor, "--no-pager"), 60);
        System.out.println("after " + 2 * restartS + " s: " + s + "\njournal:\n" + all.output());
        assertThat(s).as("the unit %s after %d s (RestartSec %d s)", UNIT, 2 * restartS, restartS)
                .containsEntry("ActiveState", "failed")
                .containsEntry("Result", "exit-code")
                .containsEntry("ExecMainCode", "1") // CLD_EXITED
                .containsEntry("ExecMainStatus", "2")
                .containsEntry("NRestarts", "0");
        assertThat(journal.output()).as("journalctl -u %s", UNIT).contains(expected).doesNotContain("\tat org.");
        assertThat(journal.output().lines().filter(l -> l.contains(expected)).count())
                .as("'%s' lines in the journal: the daemon ran once", expected).isEqualTo(1);
    }

    /**
     * A valid configuration: start, a daemon that pets systemd's watchdog, reload (SIGHUP), a crash restarted by
     * systemd, a hung daemon killed by the watchdog and restarted, stop; the stand-in kernel watchdog throughout.
     */
    private static void runsReloadsRestartsAndStops(SystemdContainer c) throws Exception {
        // a medium inside the container's own network namespace (198.18.0.0/15 only), nobody at the other end
        IsolatedRoot.Result net = c.sh("ip link add jhb0 type veth peer name jhb1 && ip addr add 198.18.200.1/24 dev jhb0"
                + " && ip link set jhb0 up && ip link set jhb1 up");
        assertThat(net.code()).as("veth in the container\n%s", net.stderr()).isZero();
        String me = c.run(List.of("uname", "-n"), 10).output().trim();
        // the stand-in kernel watchdog: a FIFO, read again after each writer ends by a transient unit of the container
        IsolatedRoot.Result reader = c.sh("mkfifo " + WATCHDOG_FIFO + " && systemd-run --quiet --unit=jhb-watchdog-reader"
                + " sh -c 'while :; do cat " + WATCHDOG_FIFO + " >> " + WATCHDOG_BYTES + "; done'");
        assertThat(reader.code()).as("the FIFO and its reader\n%s", reader.stderr()).isZero();
        c.sh("printf 'keepalive 1\\ndeadtime 10\\ninitdead 20\\nudpport 694\\nucast jhb0 198.18.200.2\\n"
                + "auto_failback on\\nnode " + me + "\\nnode jhb-it-peer\\ncrm no\\nwatchdog " + WATCHDOG_FIFO
                + "\\n' > /etc/ha.d/ha.cf"
                + " && printf 'auth 1\\n1 sha1 jhb-it-key\\n' > /etc/ha.d/authkeys && chmod 600 /etc/ha.d/authkeys"
                + " && : > /etc/ha.d/haresources");
        IsolatedRoot.Result check = c.run(List.of("hb", "config", "check", "--config-dir", "/etc/ha.d"), 60);
        assertThat(check.code()).as("hb config check of the valid config\n%s", check.output() + check.stderr()).isZero();
        c.sh("systemctl reset-failed " + UNIT + " 2>/dev/null; true");

        String startCursor = cursor(c);
        long t0 = System.nanoTime();
        IsolatedRoot.Result start = c.run(List.of("systemctl", "start", UNIT), HANG_MS / 1000);
        long started = System.nanoTime();
        System.out.printf("FIGURE systemctl_start_ms %d ms (returns at the daemon's READY=1)%n",
                (started - t0) / 1_000_000);
        assertThat(start.code()).as("systemctl start, valid config\n%s\n%s", start.stderr(), journal(c)).isZero();
        Map<String, String> s = showAll(c, "ActiveState", "SubState", "MainPID", "NRestarts");
        assertThat(s).containsEntry("ActiveState", "active").containsEntry("SubState", "running")
                .containsEntry("NRestarts", "0");
        String mainPid = s.get("MainPID");
        assertThat(showAll(c, "Type", "NotifyAccess", "WatchdogUSec")).containsEntry("Type", "notify")
                .containsEntry("NotifyAccess", "main").containsEntry("WatchdogUSec", "10s");
        assertThat(c.sh("cat /var/lib/jheartbeat/hb.pid").output().trim()).as("the daemon's pid file").isEqualTo(mainPid);
        assertThat(c.run(List.of("ps", "-o", "ni=", "-p", mainPid), 10).output().trim()).as("Nice=").isEqualTo("-10");
        // the class-data sharing archive the postinst made, mapped by the daemon systemd started
        assertThat(c.sh("grep -c /var/cache/jheartbeat/daemon.jsa /proc/" + mainPid + "/maps").code())
                .as("the daemon maps /var/cache/jheartbeat/daemon.jsa").isZero();
        // the daemon's own real-time beat threads: the unit has no RestrictRealtime=, which would refuse them
        waitForJournal(c, startCursor, "Real-time scheduling (SCHED_RR 1) for threads");
        assertThat(c.sh("ps -L -o cls=,comm= -p " + mainPid + " | grep hb-loop").output().trim()).as("hb-loop's policy")
                .startsWith("RR");
        System.out.println("oom_score_adj of the daemon (OOMScoreAdjust=-900; systemd ignores a refusal in a container): "
                + c.sh("cat /proc/" + mainPid + "/oom_score_adj").output().trim());

        // WATCHDOG=1 reaches systemd: the daemon outlives two WatchdogSec
        long watchdogMs = 10_000;
        long wait = 2 * watchdogMs - (System.nanoTime() - started) / 1_000_000;
        if (wait > 0) {
            Thread.sleep(wait);
        }
        assertThat(showAll(c, "ActiveState", "MainPID", "NRestarts")).as("two WatchdogSec after the start\n%s", journal(c))
                .containsEntry("ActiveState", "active").containsEntry("MainPID", mainPid).containsEntry("NRestarts", "0");
        assertThat(journal(c)).doesNotContain("cannot notify systemd");

        String cursor = cursor(c);
        IsolatedRoot.Result reload = c.run(List.of("systemctl", "reload", UNIT), 60);
        assertThat(reload.code()).as("systemctl reload\n%s", reload.stderr()).isZero();
        waitForJournal(c, cursor, "Received SIGHUP");
        assertThat(showAll(c, "ActiveState", "MainPID", "NRestarts")).as("after systemctl reload")
                .containsEntry("ActiveState", "active").containsEntry("MainPID", mainPid).containsEntry("NRestarts", "0");

        // a crash (SIGKILL of the main process, by pid) is restarted after RestartSec
        assertThat(c.run(List.of("kill", "-KILL", mainPid), 10).code()).isZero();
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        Map<String, String> after = Map.of();
        while (System.nanoTime() < end) {
            after = showAll(c, "ActiveState", "SubState", "MainPID", "NRestarts");
            if (after.get("NRestarts").equals("1") && after.get("SubState").equals("running")) {
                break;
            }
            Thread.sleep(500);
        }
        assertThat(after).as("after SIGKILL of the daemon\n%s", journal(c)).containsEntry("NRestarts", "1")
                .containsEntry("ActiveState", "active").containsEntry("SubState", "running");
        assertThat(after.get("MainPID")).isNotEqualTo(mainPid);

        hungDaemonIsKilledByTheWatchdogAndRestarted(c, after.get("MainPID"));

        IsolatedRoot.Result stop = c.run(List.of("systemctl", "stop", UNIT), HANG_MS / 1000);
        assertThat(stop.code()).as("systemctl stop\n%s", stop.stderr()).isZero();
        assertThat(showAll(c, "ActiveState", "Result")).as("after systemctl stop\n%s", journal(c))
                .containsEntry("ActiveState", "inactive").containsEntry("Result", "success");
        onlyTheCleanStopClosedTheWatchdogWithV(c);
    }

    /**
     * SIGSTOP of the running daemon: a stopped process sends nothing, as a hung loop. systemd's watchdog fires after
     * WatchdogSec, sends SIGABRT (with SIGCONT) and, with Restart=on-failure, starts a new daemon after RestartSec.
     */
    private static void hungDaemonIsKilledByTheWatchdogAndRestarted(SystemdContainer c, String pid) throws Exception {
        String cursor = cursor(c);
        long t0 = System.nanoTime();
        assertThat(c.run(List.of("kill", "-STOP", pid), 10).code()).isZero();
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        Map<String, String> after = Map.of();
        while (System.nanoTime() < end) {
            after = showAll(c, "ActiveState", "SubState", "MainPID", "NRestarts");
            if (after.get("NRestarts").equals("2") && after.get("SubState").equals("running")) {
                break;
            }
            Thread.sleep(500);
        }
        System.out.printf("FIGURE systemd_watchdog_restart_ms %d ms (SIGSTOP of the daemon to the next one's READY=1;"
                + " WatchdogSec 10 s, RestartSec 5 s)%n", (System.nanoTime() - t0) / 1_000_000);
        String log = c.run(List.of("journalctl", "-u", UNIT, "--after-cursor=" + cursor, "--no-pager", "-o", "cat"), 30)
                .output();
        System.out.println("journal of the watchdog restart:\n" + log);
        assertThat(after).as("after SIGSTOP of the daemon\n%s", log).containsEntry("NRestarts", "2")
                .containsEntry("ActiveState", "active").containsEntry("SubState", "running");
        assertThat(after.get("MainPID")).isNotEqualTo(pid);
        assertThat(log).contains("Watchdog timeout").contains("SIGABRT").contains("Failed with result 'watchdog'");
        assertThat(c.run(List.of("kill", "-0", pid), 10).code()).as("the hung daemon %s is gone", pid).isNotZero();
        System.out.println("core file of the aborted JVM (if the machine's limits made one): "
                + c.sh("ls -l /core* 2>/dev/null; rm -f /core*; true").output().trim());
    }

    /** The stand-in device got pets, and one 'V', last: the clean stop's; the SIGKILL and the SIGABRT wrote none. */
    private static void onlyTheCleanStopClosedTheWatchdogWithV(SystemdContainer c) throws Exception {
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        String last = "";
        while (System.nanoTime() < end) { // the reader appends what it read after the daemon ended
            last = c.sh("tail -c 1 " + WATCHDOG_BYTES).output();
            if (last.equals("V")) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(last).as("the last byte written to the stand-in watchdog").isEqualTo("V");
        long pets = Long.parseLong(c.sh("tr -cd '\\000' < " + WATCHDOG_BYTES + " | wc -c").output().trim());
        String others = c.sh("tr -d '\\000' < " + WATCHDOG_BYTES).output();
        System.out.println("stand-in watchdog: " + pets + " pets, then " + others);
        assertThat(others).as("everything but the pets: one magic close").isEqualTo("V");
        assertThat(pets).as("pets from the daemons (about one a second while they ran)").isGreaterThan(20);
    }

    private static String show(SystemdContainer c, String property) throws Exception {
        return showAll(c, property).get(property);
    }

    private static Map<String, String> showAll(SystemdContainer c, String... properties) throws Exception {
        IsolatedRoot.Result r = c.run(List.of("systemctl", "show", UNIT, "-p", String.join(",", properties)), 30);
        assertThat(r.code()).as("systemctl show\n%s", r.stderr()).isZero();
        Map<String, String> m = new LinkedHashMap<>();
        for (String p : properties) {
            Matcher x = Pattern.compile("(?m)^" + p + "=(.*)$").matcher(r.output());
            assertThat(x.find()).as("%s in systemctl show\n%s", p, r.output()).isTrue();
            m.put(p, x.group(1).trim());
        }
        return m;
    }

    private static void waitFor(SystemdContainer c, String property, String value) throws Exception {
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        String now = show(c, property);
        while (!now.equals(value) && System.nanoTime() < end) {
            Thread.sleep(200);
            now = show(c, property);
        }
        assertThat(now).as("%s of %s\n%s", property, UNIT, journal(c)).isEqualTo(value);
    }

    private static void waitForJournal(SystemdContainer c, String cursor, String text) throws Exception {
        long end = System.nanoTime() + HANG_MS * 1_000_000;
        while (System.nanoTime() < end) {
            if (c.run(List.of("journalctl", "-u", UNIT, "--after-cursor=" + cursor, "--no-pager", "-o", "cat"), 30)
                    .output().contains(text)) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no '" + text + "' in the journal of " + UNIT + "\n" + journal(c));
    }

    /** The journal's current end, to read only what comes after it. */
    private static String cursor(SystemdContainer c) throws Exception {
        String out = c.run(List.of("journalctl", "-n", "0", "--show-cursor", "--no-pager"), 30).output();
        Matcher m = Pattern.compile("(?m)^-- cursor: (\\S+)").matcher(out);
        assertThat(m.find()).as("journalctl --show-cursor\n%s", out).isTrue();
        return m.group(1);
    }

    private static String journal(SystemdContainer c) throws Exception {
        return c.run(List.of("journalctl", "-n", "60", "--no-pager"), 30).output();
    }

    /** RestartUSec as systemctl show prints it ("5s", "100ms", "1min 30s"), in whole seconds, at least 1. */
    static long restartSeconds(String span) {
        long ms = 0;
        Matcher m = Pattern.compile("(\\d+)(min|ms|s)").matcher(span);
        while (m.find()) {
            long n = Long.parseLong(m.group(1));
            ms += switch (m.group(2)) {
                case "min" -> n * 60_000;
                case "s" -> n * 1000;
                default -> n;
            };
        }
        assertThat(ms).as("RestartUSec '%s'", span).isPositive();
        return Math.max(1, (ms + 999) / 1000);
    }

    private static Map<String, String> hostSysctls() throws IOException {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : HOST_SYSCTLS) {
            Path p = Path.of("/proc/sys", k);
            m.put(k, Files.exists(p) ? Files.readString(p, StandardCharsets.US_ASCII).trim() : "(none)");
        }
        return m;
    }

    private static String hostDpkgJheartbeat() throws IOException {
        String status = Files.readString(Path.of("/var/lib/dpkg/status"), StandardCharsets.UTF_8);
        int i = status.indexOf("Package: jheartbeat\n");
        return i < 0 ? "" : status.substring(i, status.indexOf("\n\n", i) < 0 ? status.length() : status.indexOf("\n\n", i));
    }

    private static Path findDeb() throws IOException {
        try (Stream<Path> s = Files.list(TARGET)) {
            List<Path> debs = s.filter(p -> p.getFileName().toString().matches("jheartbeat_.*_all\\.deb")).toList();
            assertThat(debs).as("the .deb built by mvn package in %s", TARGET).hasSize(1);
            return debs.get(0);
        }
    }

    private static boolean isRoot() {
        try {
            return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
