package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** mysql, pgsql, ldap, radius, sip, external, ping, on/off, the numeric checktype and the mapping. */
class OtherChecksTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Duration SHORT = Duration.ofMillis(400);

    private static CheckResult negotiate(String service, CheckTarget target, Duration timeout) throws Exception {
        return Checks.forService("negotiate", service).check(target, timeout);
    }

    @Test
    void mysqlIsUpOnAProtocol10GreetingAndDownWithTheServersErrorMessage() throws Exception {
        byte[] greeting = {10, '8', '.', '0', 0, 1, 0, 0, 0};
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(new byte[] {(byte) greeting.length, 0, 0, 0});
            out.write(greeting);
            out.flush();
            ScriptedServer.hang(in);
        })) {
            CheckResult r = negotiate("mysql", s.target(), TIMEOUT);
            assertThat(r.up()).as(r.reason()).isTrue();
        }
        byte[] text = "#08004Too many connections".getBytes(StandardCharsets.US_ASCII);
        byte[] error = new byte[3 + text.length];
        error[0] = (byte) 0xff;
        error[1] = 0x10;
        error[2] = 0x04; // 1040
        System.arraycopy(text, 0, error, 3, text.length);
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            out.write(new byte[] {(byte) error.length, 0, 0, 0});
            out.write(error);
            out.flush();
        })) {
            CheckResult r = negotiate("mysql", s.target(), TIMEOUT);
            assertThat(r.up()).isFalse();
            assertThat(r.reason()).contains("error 1040", "Too many connections");
        }
    }

    @Test
    void pgsqlIsUpOnAnAuthenticationRequestAndDownOnAnError() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> {
            int len = (in.read() << 24) | (in.read() << 16) | (in.read() << 8) | in.read();
            byte[] rest = in.readNBytes(len - 4);
            String params = new String(rest, 4, rest.length - 4, StandardCharsets.UTF_8);
            if (params.contains("user\0web\0database\0shop\0")) {
                out.write(new byte[] {'R', 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4}); // MD5 password please
            } else {
                byte[] fields = "SFATAL\0C3D000\0Mdatabase \"web\" does not exist\0\0".getBytes(StandardCharsets.UTF_8);
                out.write(new byte[] {'E', 0, 0, 0, (byte) (fields.length + 4)});
                out.write(fields);
            }
            out.flush();
            ScriptedServer.hang(in);
        })) {
            CheckResult up = negotiate("pgsql", s.target().withLogin("web", "pw").withDatabase("shop"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            CheckResult down = negotiate("pgsql", s.target().withLogin("web", "pw"), TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("3D000", "does not exist");
        }
    }

    @Test
    void ldapIsDownWithTheReasonWhenRefusedAndCutAtTheTimeoutWhenSilent() throws Exception {
        try (ScriptedServer s = new ScriptedServer((client, in, out) -> ScriptedServer.hang(in))) {
            for (String service : new String[] {"ldap", "ldaps"}) {
                CheckResult silent = negotiate(service, s.target().withRequest("/dc=example,dc=test"), SHORT);
                assertThat(silent.up()).as(service).isFalse();
                assertThat(silent.elapsedMillis()).as(service).isLessThan(5_000);
            }
        }
        // a refusal comes at once; the bound only catches a hang (JNDI's first use is slow on a busy machine).
        // The port is held by a bound socket that does not listen, so no other process can take it meanwhile.
        try (java.net.Socket holder = new java.net.Socket()) {
            holder.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            CheckTarget closed = CheckTarget.of(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(),
                    holder.getLocalPort()));
            CheckResult refused = negotiate("ldap", closed.withRequest("/dc=example,dc=test"), Duration.ofSeconds(60));
            assertThat(refused.up()).isFalse();
            assertThat(refused.reason()).startsWith("LDAP");
        }
    }

    /** A RADIUS server with secret "s3cret" accepting alice/right. */
    private static DatagramSocket radiusServer() throws Exception {
        DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            byte[] secret = "s3cret".getBytes(StandardCharsets.UTF_8);
            byte[] buf = new byte[4096];
            while (!socket.isClosed()) {
                try {
                    DatagramPacket p = new DatagramPacket(buf, buf.length);
                    socket.receive(p);
                    byte[] q = Arrays.copyOf(p.getData(), p.getLength());
                    byte[] auth = Arrays.copyOfRange(q, 4, 20);
                    // attributes: User-Name then User-Password (as the check sends them)
                    int nameLen = q[21] & 0xff;
                    String user = new String(q, 22, nameLen - 2, StandardCharsets.UTF_8);
                    int pw = 20 + nameLen;
                    byte[] hidden = Arrays.copyOfRange(q, pw + 2, pw + (q[pw + 1] & 0xff));
                    byte[] clear = RadiusCheck.hidePassword(hidden, auth, secret); // XOR is its own inverse per block
                    String password = new String(clear, StandardCharsets.UTF_8).replace("\0", "");
                    boolean ok = user.equals("alice") && password.equals("right");
                    byte[] a = new byte[20];
                    a[0] = (byte) (ok ? 2 : 3);
                    a[1] = q[1];
                    a[3] = 20;
                    MessageDigest md5 = MessageDigest.getInstance("MD5");
                    md5.update(a, 0, 4);
                    md5.update(auth);
                    md5.update(secret);
                    System.arraycopy(md5.digest(), 0, a, 4, 16);
                    socket.send(new DatagramPacket(a, a.length, p.getSocketAddress()));
                } catch (Exception e) {
                    return;
                }
            }
        }, "radius");
        t.setDaemon(true);
        t.start();
        return socket;
    }

    @Test
    void radiusIsUpOnAccessAcceptOnlyAndChecksTheAuthenticator() throws Exception {
        try (DatagramSocket server = radiusServer()) {
            CheckTarget t = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()))
                    .withProtocol("udp");
            CheckResult up = negotiate("radius", t.withLogin("alice", "right").withSecret("s3cret"), TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            CheckResult reject = negotiate("radius", t.withLogin("alice", "wrong").withSecret("s3cret"), TIMEOUT);
            assertThat(reject.up()).isFalse();
            assertThat(reject.reason()).contains("Access-Reject");
            CheckResult badSecret = negotiate("radius", t.withLogin("alice", "right").withSecret("other"), TIMEOUT);
            assertThat(badSecret.up()).isFalse();
            assertThat(badSecret.reason()).contains("wrong authenticator");
        }
    }

    @Test
    void sipWantsA200OkToOptions() throws Exception {
        try (DatagramSocket server = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            List<String> seen = new ArrayList<>();
            Thread t = new Thread(() -> {
                byte[] buf = new byte[4096];
                try {
                    for (int i = 0; i < 2; i++) {
                        DatagramPacket p = new DatagramPacket(buf, buf.length);
                        server.receive(p);
                        String request = new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
                        seen.add(request.lines().findFirst().orElse(""));
                        byte[] a = (i == 0 ? "SIP/2.0 200 OK\r\n\r\n" : "SIP/2.0 404 Not Found\r\n\r\n").getBytes();
                        server.send(new DatagramPacket(a, a.length, p.getSocketAddress()));
                    }
                } catch (Exception e) {
                    // closed
                }
            });
            t.setDaemon(true);
            t.start();
            CheckTarget target = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                    server.getLocalPort())).withProtocol("udp").withLogin("probe@example.test", "");
            CheckResult up = negotiate("sip", target, TIMEOUT);
            assertThat(up.up()).as(up.reason()).isTrue();
            CheckResult down = negotiate("sip", target, TIMEOUT);
            assertThat(down.up()).isFalse();
            assertThat(down.reason()).contains("404 Not Found");
            t.join(5_000);
            assertThat(seen).first().isEqualTo("OPTIONS sip:probe@example.test SIP/2.0");
        }
    }

    @Test
    void externalRunsTheCommandWithLdirectordsFourArgumentsAndIsBounded(@TempDir Path dir) throws Exception {
        Path args = dir.resolve("args");
        Path script = dir.resolve("check.sh");
        Files.writeString(script, "#!/bin/sh\necho \"$@\" > " + args + "\n"
                + "[ \"$3\" = 127.0.0.1 ] || { echo 'wrong real' >&2; exit 3; }\n"
                + "[ \"$1\" = 198.18.0.1 ] && exit 0\nsleep 30\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        HealthCheck external = Checks.forService("external", "none");
        CheckTarget base = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 8080))
                .withCheckCommand(script.toString());
        CheckResult up = external.check(base.withExternalArguments("198.18.0.1", 80, 8081), TIMEOUT);
        assertThat(up.up()).as(up.reason()).isTrue();
        assertThat(Files.readString(args).strip()).isEqualTo("198.18.0.1 80 127.0.0.1 8081");
        CheckResult hung = external.check(base.withExternalArguments("7", 0, 0), Duration.ofMillis(500));
        assertThat(hung.up()).isFalse();
        assertThat(hung.reason()).contains("did not finish within 500 ms");
        assertThat(hung.elapsedMillis()).isLessThan(10_000);
        CheckResult wrong = external.check(CheckTarget.of(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 1))
                .withCheckCommand(script.toString()), TIMEOUT);
        assertThat(wrong.reason()).contains("exited with status 3", "wrong real");
        CheckResult missing = external.check(base.withCheckCommand(dir.resolve("nope").toString()), TIMEOUT);
        assertThat(missing.up()).isFalse();
        assertThat(missing.reason()).contains("cannot run");
    }

    @Test
    void pingRunsThePingProgramOncePerAttemptUntilAReply() throws Exception {
        List<List<String>> runs = new ArrayList<>();
        int[] replyOn = {3};
        HealthCheck ping = Checks.forService("ping", "none", (ProcessSpec spec) -> {
            runs.add(spec.argv());
            return ProcessResult.exited(runs.size() == replyOn[0] ? 0 : 1, "");
        });
        CheckTarget target = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).withCheckCount(3);
        assertThat(ping.check(target, Duration.ofSeconds(2)).up()).isTrue();
        assertThat(runs).hasSize(3).allSatisfy(argv ->
                assertThat(argv).containsExactly("ping", "-n", "-q", "-c", "1", "-W", "2", "127.0.0.1"));
        runs.clear();
        replyOn[0] = 99;
        CheckResult down = ping.check(target.withCheckCount(2), Duration.ofSeconds(2));
        assertThat(down.up()).isFalse();
        assertThat(down.reason()).contains("no ping reply", "after 2 attempts");
        // connect on a udp service is a ping, as ldirectord
        runs.clear();
        replyOn[0] = 1;
        HealthCheck connect = Checks.forService("connect", "dns", (ProcessSpec spec) -> {
            runs.add(spec.argv());
            return ProcessResult.exited(0, "");
        });
        assertThat(connect.check(target.withProtocol("udp"), Duration.ofSeconds(1)).up()).isTrue();
        assertThat(runs).hasSize(1);
    }

    @Test
    void theNumericChecktypeNegotiatesAfterNPassedConnectsAndAfterAFailedOne() throws Exception {
        List<String> calls = new ArrayList<>();
        boolean[] connectUp = {true};
        boolean[] negotiateUp = {true};
        CombinedCheck combined = new CombinedCheck(2,
                (t, d) -> {
                    calls.add("connect");
                    return connectUp[0] ? CheckResult.up(0) : CheckResult.down("refused", 0);
                },
                (t, d) -> {
                    calls.add("negotiate");
                    return negotiateUp[0] ? CheckResult.up(0) : CheckResult.down("503", 0);
                });
        CheckTarget a = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 80));
        CheckTarget b = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 81));
        for (int i = 0; i < 6; i++) {
            combined.check(a, TIMEOUT);
        }
        assertThat(calls).containsExactly("connect", "connect", "negotiate", "connect", "connect", "negotiate");
        calls.clear();
        connectUp[0] = false;
        combined.check(b, TIMEOUT); // failed connect forces a negotiate next
        connectUp[0] = true;
        negotiateUp[0] = false;
        combined.check(b, TIMEOUT);
        combined.check(b, TIMEOUT); // failed negotiate: negotiate again
        negotiateUp[0] = true;
        combined.check(b, TIMEOUT);
        combined.check(b, TIMEOUT);
        assertThat(calls).containsExactly("connect", "negotiate", "negotiate", "negotiate", "connect");
        assertThat(Checks.forService("3", "http")).isInstanceOf(CombinedCheck.class)
                .extracting(c -> ((CombinedCheck) c).every()).isEqualTo(3);
    }

    @Test
    void onOffAndNoneContactNothing() throws Exception {
        CheckTarget nowhere = CheckTarget.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 1));
        assertThat(Checks.forService("on", "http").check(nowhere, TIMEOUT).up()).isTrue();
        assertThat(Checks.forService("negotiate", "none").check(nowhere, TIMEOUT).up()).isTrue();
        CheckResult off = Checks.forService("off", "http").check(nowhere, TIMEOUT);
        assertThat(off.up()).isFalse();
        assertThat(off.reason()).isEqualTo("checktype=off");
    }

    @Test
    void everyChecktypeAndServiceLdirectordAcceptsMapsAndTheRestIsRejectedWithWhatToDo() {
        for (String type : List.of("negotiate", "connect", "ping", "external", "external-perl", "on", "off", "0", "5")) {
            for (String service : Checks.SERVICES) {
                if (service.equals("oracle") && (type.equals("negotiate") || type.matches("\\d+"))) {
                    assertThatThrownBy(() -> Checks.forService(type, service))
                            .isInstanceOf(IllegalArgumentException.class)
                            .hasMessageContaining("service oracle is not supported").hasMessageContaining("external");
                } else {
                    assertThat(Checks.forService(type, service)).as(type + "/" + service).isNotNull();
                }
            }
        }
        assertThat(Checks.forService("Negotiate", "HTTP")).isNotNull();
        assertThat(Checks.forService("negotiate", "")).isNotNull();
        assertThatThrownBy(() -> Checks.forService("negotiate", "gopher"))
                .hasMessageContaining("service \"gopher\" is not one ldirectord knows");
        assertThatThrownBy(() -> Checks.forService("sometimes", "http"))
                .hasMessageContaining("checktype \"sometimes\" is unknown");
        assertThatThrownBy(() -> Checks.forService("negotiate_connect", "http"))
                .hasMessageContaining("write a number N");
    }

    @Test
    void theNinePartConstructorKeepsItsMeaning() {
        InetSocketAddress server = new InetSocketAddress(InetAddress.getLoopbackAddress(), 8080);
        CheckTarget t = new CheckTarget(server, java.util.Optional.of("/"), java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty(), java.util.Optional.empty(),
                java.util.Optional.empty(), java.util.Optional.empty(), "GET");
        assertThat(t.protocol()).isEqualTo("tcp");
        assertThat(t.checkCount()).isEqualTo(1);
        assertThat(t.realPort()).isEqualTo(8080);
        assertThat(t.checkCommand()).isEmpty();
    }
}
