package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jheartbeat.cli.command.LvsRealServerCommand;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb lvs check} and {@code hb lvs status} without a running director. */
class LvsCommandTest {
    @TempDir
    Path dir;

    static final String SEED = "checktimeout=20\ncheckinterval=10\nautoreload=yes\nquiescent=no\n"
            + "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\treal=198.18.0.22:80 gate\n\tservice=http\n"
            + "\tscheduler=lc\n\tpersistent=90\n\tprotocol=tcp\n\tchecktype=connect\n";

    @Test
    void checkAcceptsTheSeedConfig() throws Exception {
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), SEED);
        // this machine is not the seed's director: its LVS-DR topology is DrTopologyIT's
        HbRun r = HbRun.hb("lvs", "check", "--no-topology", f.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(0);
        assertThat(r.out()).startsWith(f + ": configuration OK (1 virtual service(s), 2 real server(s), read in ");
        assertThat(r.err()).isEmpty();
    }

    @Test
    void checkNamesEveryProblemAtFileLineAndExitsTwo() throws Exception {
        Path f = Files.writeString(dir.resolve("bad.cf"), "checktimeout=0\nvirtual=198.18.0.100:80\n"
                + "    real=198.18.0.21:80\n    shceduler=lc\n  checktype=connect\n");
        HbRun r = HbRun.hb("lvs", "check", f.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err().lines()).containsExactly(
                f + ":1: checktimeout must be a whole number of seconds greater than 0, not '0'",
                f + ":3: real = 198.18.0.21:80: expected 'address[:port] gate|masq|ipip [weight]'; the forwarding"
                        + " method is required",
                f + ":4: unknown directive 'shceduler'; did you mean 'scheduler'?",
                f + ":5: indented by 2 spaces: lines of a virtual= block need at least 4 spaces or a tab, global lines"
                        + " none; fix the indentation",
                "4 error(s) in " + f + "; fix them before starting the director.");
        assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void checkReportsACheckThisBuildLacksAtTheVirtualsLine() throws Exception {
        Path f = Files.writeString(dir.resolve("neg.cf"), "virtual=198.18.0.100:80\n    real=198.18.0.21:80 gate\n"
                + "    checktype=external-perl\n");
        HbRun r = HbRun.hb("lvs", "check", f.toString());
        // whether the build has it or not, the answer is definite: OK, or an error at line 1
        if (r.code() != 0) {
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err()).startsWith(f + ":1: virtual 198.18.0.100:80: ");
        }
    }

    @Test
    void aSeventyServiceConfigIsCheckedQuickly() throws Exception {
        StringBuilder sb = new StringBuilder("checktimeout=5\ncheckinterval=10\nautoreload=yes\nquiescent=no\n");
        for (int i = 0; i < 70; i++) {
            sb.append("virtual=198.18.2.").append(i + 1).append(":80\n");
            for (int j = 0; j < 4; j++) {
                sb.append("\treal=198.18.3.").append(10 + j).append(":80 gate\n");
            }
            sb.append("\tservice=http\n\tscheduler=wlc\n\tpersistent=90\n\tchecktype=connect\n");
        }
        Path f = Files.writeString(dir.resolve("big.cf"), sb.toString());
        long t0 = System.nanoTime();
        HbRun r = HbRun.hb("lvs", "check", f.toString());
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.code()).as(r.err()).isZero();
        System.out.printf("hb lvs check of 70 virtual services / 280 reals: %d ms in-process (%s)%n", ms,
                r.out().strip());
        assertThat(r.out()).contains("70 virtual service(s), 280 real server(s)");
    }

    @Test
    void aMissingFileIsOneLine() {
        HbRun r = HbRun.hb("lvs", "check", dir.resolve("nope.cf").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith(dir.resolve("nope.cf") + ":0: no such file; give the path of the ldirectord.cf");
    }

    /** This kernel has no IPVS: status reads a recording ipvsadm (director test resources). */
    @Test
    void statusWithoutADirectorReadsTheTableAndPrintsIpvsadmsLayout() throws Exception {
        Path rec = dir.resolve("ipvsadm");
        Path src = Path.of(System.getProperty("project.root", ".."))
                .resolve("director/src/test/resources/org/jheartbeat/director/ipvsadm-recorder");
        if (!Files.exists(src)) {
            src = Path.of("../director/src/test/resources/org/jheartbeat/director/ipvsadm-recorder");
        }
        Files.copy(src, rec);
        Files.setPosixFilePermissions(rec, PosixFilePermissions.fromString("rwxr-xr-x"));
        // the recorder's table lives next to it when IPVSADM_STATE is unset
        ProcessBuilder pb = new ProcessBuilder(rec.toString(), "-A", "-t", "198.18.0.100:80", "-s", "lc", "-p", "90");
        assertThat(pb.start().waitFor()).isZero();
        assertThat(new ProcessBuilder(rec.toString(), "-a", "-t", "198.18.0.100:80", "-r", "198.18.0.21:80", "-g",
                "-w", "1").start().waitFor()).isZero();
        HbRun r = HbRun.hb("lvs", "status", "--socket", dir.resolve("none.sock").toString(), "--ipvsadm",
                rec.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("IP Virtual Server version 1.2.1 (size=4096)\n"
                + "Prot LocalAddress:Port Scheduler Flags\n"
                + "  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n"
                + "TCP  198.18.0.100:80 lc persistent 90\n"
                + "  -> 198.18.0.21:80               Route   1      0          0         \n");
        HbRun json = HbRun.hb("lvs", "status", "--socket", dir.resolve("none.sock").toString(), "--ipvsadm",
                rec.toString(), "--json");
        assertThat(json.out()).startsWith("{\"services\":[{\"protocol\":\"tcp\",\"address\":\"198.18.0.100\"");
        HbRun missing = HbRun.hb("lvs", "status", "--socket", dir.resolve("none.sock").toString(), "--ipvsadm",
                dir.resolve("no-ipvsadm").toString());
        assertThat(r.err()).isEqualTo("hb: no director is running (nothing answers on " + dir.resolve("none.sock")
                + "): start it with 'hb lvs daemon CONFIG', or name its config or --socket; the kernel's IPVS table:\n");
        assertThat(missing.code()).isEqualTo(3);
        assertThat(missing.err()).isEqualTo("hb: no director is running (nothing answers on " + dir.resolve("none.sock")
                + "): start it with 'hb lvs daemon CONFIG', or name its config or --socket; and "
                + dir.resolve("no-ipvsadm") + " is not installed, so the kernel's table cannot be shown either\n");
    }

    /**
     * No director and a kernel without IPVS: one line saying so, exit 3 (no daemon running), instead of
     * ipvsadm's and modprobe's words (an ipvsadm that answers as Debian 12's does on such a kernel).
     */
    @Test
    void statusWithoutADirectorOnAKernelWithoutIpvsSaysNoDirectorIsRunning() throws Exception {
        Path ipvsadm = Files.writeString(dir.resolve("ipvsadm"), """
                #!/bin/sh
                echo "modprobe: FATAL: Module ip_vs not found in directory /lib/modules/6.1.0-28-amd64" >&2
                echo "Can't initialize ipvs: Protocol not available" >&2
                echo "Are you sure that IP Virtual Server is built in the kernel or as module?" >&2
                exit 2
                """);
        Files.setPosixFilePermissions(ipvsadm, PosixFilePermissions.fromString("rwxr-xr-x"));
        HbRun r = HbRun.hb("lvs", "status", "--socket", dir.resolve("none.sock").toString(), "--ipvsadm",
                ipvsadm.toString());
        assertThat(r.code()).isEqualTo(ExitCodes.NOT_RUNNING);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("hb: no director is running (nothing answers on " + dir.resolve("none.sock")
                + "): start it with 'hb lvs daemon CONFIG', or name its config or --socket; the kernel's IPVS table"
                + " cannot be read either (Can't initialize ipvs: Protocol not available)\n");
    }

    @Test
    void anUnknownBackendIsAUsageError() throws Exception {
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), SEED);
        HbRun r = HbRun.hb("lvs", "daemon", "--backend", "kernel", "--socket", dir.resolve("s.sock").toString(),
                f.toString());
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).contains("--backend kernel: unknown; use auto, ipvs or userspace")
                .doesNotContain("Exception");
    }

    @Test
    void realserverWantsANumericIpv4Vip() throws Exception {
        HbRun r = HbRun.hb("lvs", "realserver", "www.example.org", "--state-dir", dir.toString());
        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).contains("VIP 'www.example.org' is not a numeric IPv4 address").doesNotContain("Exception");
    }

    /** A reload with no director running: one line naming the socket, exit 3 (found trying the README). */
    @Test
    void reloadWithoutADirectorSaysSoAndExitsThree() throws Exception {
        Path f = Files.writeString(dir.resolve("ldirectord.cf"), SEED);
        Path sock = dir.resolve("none.sock");
        HbRun r = HbRun.hb("lvs", "reload", "--socket", sock.toString(), f.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).isEqualTo("hb: no director runs for this config (no socket " + sock
                + "); start it with hb lvs daemon CONFIG, or give a running director's --socket\n");
    }

    /**
     * A --state-dir that is a file, or empty: refused before anything is changed (tryout: with a file the VIP
     * was added to lo, then the state could not be written, exit 1 with only the path as message, and --undo
     * had nothing to undo; an empty one was the working directory). Tested on the check itself: the command
     * would change this machine's lo and ARP sysctls if the check ever let it through.
     */
    @Test
    void realserverChecksItsStateDirBeforeChangingAnything() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "");
        assertThatThrownBy(() -> LvsRealServerCommand.stateFile("198.18.0.150", file, false))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(1))
                .hasMessage("realserver 198.18.0.150: cannot keep the values it replaces (for --undo) in --state-dir "
                        + file + ": it exists and is not a directory; give a writable directory. Nothing changed");
        assertThatThrownBy(() -> LvsRealServerCommand.stateFile("198.18.0.150", Path.of(""), true))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(64))
                .hasMessage("--state-dir is empty; give the directory that keeps the values for --undo (default"
                        + " /var/lib/jheartbeat)");
        assertThat(LvsRealServerCommand.stateFile("198.18.0.150", dir.resolve("new"), false))
                .isEqualTo(dir.resolve("new/lvs-realserver-198.18.0.150.state"));
        assertThat(dir.resolve("new")).isDirectory();
    }

    /** A hand-edited state file: file:line and what to do, nothing changed (was: "hb: NumberFormatException: …"). */
    @Test
    void aDamagedRealserverStateFileIsNamedWithItsLine() throws Exception {
        Path state = Files.writeString(dir.resolve("lvs-realserver-198.18.0.150.state"),
                "net.ipv4.conf.all.arp_ignore=0\nnet.ipv4.conf.all.arp_announce=two\n");
        assertThatThrownBy(() -> LvsRealServerCommand.readState("198.18.0.150", state))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(1))
                .hasMessage(state + ":2: not SYSCTL=NUMBER as this command writes it; correct or delete the file (then"
                        + " set the ARP sysctls by hand). Nothing changed");
        Files.writeString(state, "all/arp_ignore=0\nall/arp_announce=0\n");
        assertThat(LvsRealServerCommand.readState("198.18.0.150", state)).containsEntry("all/arp_ignore", 0)
                .containsEntry("all/arp_announce", 0);
    }
}
