package org.jheartbeat.core.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.time.MonotonicClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may command the daemon: the rule on its own, then on a real socket with a real unprivileged client (the
 * kernel's SO_PEERCRED names it).
 */
class ControlAccessTest {
    static final ControlRequest STANDBY = parse("standby all 60");
    static final ControlRequest STATUS = parse("status");

    @TempDir
    Path dir;

    static ControlRequest parse(String line) {
        try {
            return ControlRequest.parse(line);
        } catch (MalformedRequestException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void readersReadRootAndTheAdminGroupChange() {
        ControlAccess.Caller monitor = new ControlAccess.Caller("nagios", "haclient");
        assertThat(ControlAccess.ROOT_ONLY.refusal(monitor, STATUS)).isEmpty();
        assertThat(ControlAccess.ROOT_ONLY.refusal(monitor, parse("maintenance status"))).isEmpty();
        assertThat(ControlAccess.ROOT_ONLY.refusal(monitor, parse("cl_status rscstatus"))).isEmpty();
        assertThat(ControlAccess.ROOT_ONLY.refusal(monitor, STANDBY)).contains("'standby all 60' changes the cluster"
                + " and user nagios (group haclient) may only read; run it as root, or name an admin group in"
                + " jheartbeat.yaml (control: admin_group: GROUP)");
        for (String change : List.of("takeover all 60", "cleanup", "reload", "maintenance on", "maintenance off")) {
            assertThat(ControlAccess.ROOT_ONLY.refusal(monitor, parse(change))).as(change).isPresent();
        }
        assertThat(ControlAccess.ROOT_ONLY.refusal(new ControlAccess.Caller("root", "root"), STANDBY)).isEmpty();

        Map<String, Set<String>> db = Map.of("haadmin", Set.of("alice"));
        ControlAccess admins = new ControlAccess(Optional.of("haadmin"), g -> db.getOrDefault(g, Set.of()));
        assertThat(admins.refusal(new ControlAccess.Caller("alice", "users"), STANDBY)).isEmpty();
        assertThat(admins.refusal(new ControlAccess.Caller("bob", "haadmin"), STANDBY)).isEmpty();
        assertThat(admins.refusal(monitor, STANDBY)).get().asString().endsWith("run it as root or as a member of group"
                + " haadmin");
    }

    @Test
    void theGroupDatabaseGivesSupplementaryMembers() throws IOException {
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\nhaclient:x:113:nagios\nhaadmin:x:1001:alice,bob\n");
        assertThat(ControlAccess.members(group, "haadmin")).containsExactlyInAnyOrder("alice", "bob");
        assertThat(ControlAccess.members(group, "root")).isEmpty();
        assertThat(ControlAccess.members(group, "nosuch")).isEmpty();
        assertThat(ControlAccess.members(dir.resolve("missing"), "haadmin")).isEmpty();
    }

    /** The unprivileged user {@code nobody} through socat, as a haclient member would connect: reads, may not change. */
    @Test
    void anUnprivilegedCallerIsDeniedAChangeAndServedAStatus() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "switching to user nobody needs root");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/socat")) && Files.isExecutable(Path.of("/usr/bin/setpriv")),
                "needs socat and setpriv");
        Path sock = dir.resolve("control.sock");
        try (ControlServer s = new ControlServer(sock, r -> ControlResponse.ok(r.toWire() + " done\n"),
                ControlServer.Limits.DEFAULT, MonotonicClock.system())) {
            s.start();
            // in production the socket is 0660 root:haclient; here nobody stands in for a haclient member
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.setPosixFilePermissions(sock, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertThat(asNobody(sock, "standby all 60")).isEqualTo("DENIED 'standby all 60' changes the cluster and"
                    + " user nobody (group nogroup) may only read; run it as root, or name an admin group in"
                    + " jheartbeat.yaml (control: admin_group: GROUP)\n");
            assertThat(asNobody(sock, "status")).isEqualTo("OK\nstatus done\n");
            assertThat(s.stats().denied()).isEqualTo(1);
        }
    }

    private static String asNobody(Path sock, String request) throws Exception {
        Process p = new ProcessBuilder("/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                "/usr/bin/socat", "-", "UNIX-CONNECT:" + sock).redirectErrorStream(true).start();
        p.getOutputStream().write((request + "\n").getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
