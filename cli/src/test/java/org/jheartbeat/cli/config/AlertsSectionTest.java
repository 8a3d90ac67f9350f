package org.jheartbeat.cli.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.journal.EventKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** jheartbeat.yaml's {@code alerts:} section on real files: scripts with their real modes. */
class AlertsSectionTest {
    private static final Path FILE = Path.of("/etc/ha.d/jheartbeat.yaml");
    @TempDir
    Path dir;
    private Path script;

    @BeforeEach
    void script() throws Exception {
        script = dir.resolve("alert.sh");
        Files.writeString(script, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private static JheartbeatYaml parse(String text) throws UserException {
        return JheartbeatYaml.parse(text, FILE, Optional.empty());
    }

    private static String error(String text) {
        try {
            parse(text);
        } catch (UserException e) {
            assertThat(e.exitCode()).isEqualTo(2);
            return e.getMessage();
        }
        throw new AssertionError("no error for:\n" + text);
    }

    @Test
    void readsScriptAndMailEntriesWithTheirDefaults() throws Exception {
        AlertSettings a = parse("alerts:\n"
                + "  - script: " + script + "\n"
                + "    kinds: [node-dead, fence-failed]\n"
                + "    timeout: 5s\n"
                + "    recipient: ops-pager\n"
                + "  - mail:\n"
                + "      to: [root@example.com, ops]\n"
                + "      smtp: 198.18.0.10:2525\n"
                + "    rate_limit: 10/min\n").alerts();
        assertThat(a.rules()).hasSize(2);
        AlertSettings.Rule s = a.rules().get(0);
        assertThat(s.line()).isEqualTo(2);
        assertThat(s.target()).isEqualTo(new AlertSettings.Script(script, "ops-pager"));
        assertThat(s.kinds()).isEqualTo(Set.of(EventKind.NODE_DEAD, EventKind.FENCE_FAILED));
        assertThat(s.timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.rateLimit()).isEmpty();
        AlertSettings.Rule m = a.rules().get(1);
        assertThat(m.line()).isEqualTo(6);
        assertThat(m.target()).isEqualTo(new AlertSettings.Mail(List.of("root@example.com", "ops"), Optional.empty(),
                "198.18.0.10", 2525));
        assertThat(m.kinds()).isEmpty();
        assertThat(m.wants(EventKind.REAL_DOWN)).isTrue();
        assertThat(m.timeout()).isEqualTo(AlertSettings.DEFAULT_TIMEOUT);
        assertThat(m.rateLimit()).contains(new AlertSettings.RateLimit(10, Duration.ofMinutes(1)));
        assertThat(parse("alerts:\n  - mail: {to: [root]}\n").alerts().rules().get(0).target())
                .isEqualTo(new AlertSettings.Mail(List.of("root"), Optional.empty(), "localhost", 25));
        assertThat(parse("").alerts()).isEqualTo(AlertSettings.NONE);
    }

    @Test
    void anUnknownKindIsAnErrorWithItsLineAndTheClosestName() {
        assertThat(error("alerts:\n  - script: " + script + "\n    kinds: [node-dead, fence-faild]\n"))
                .startsWith("/etc/ha.d/jheartbeat.yaml:3: alerts: kinds: unknown kind [fence-faild]; did you mean"
                        + " 'fence-failed'? known: daemon-start,");
        assertThat(error("alerts:\n  - script: " + script + "\n    kind: [node-dead]\n"))
                .isEqualTo("/etc/ha.d/jheartbeat.yaml:3: alerts: unknown key [kind]; did you mean 'kinds'? known:"
                        + " script, mail, kinds, timeout, rate_limit, recipient");
    }

    @Test
    void aScriptOthersMayWriteIsRefusedAsEveryFileThatRunsAsRoot() throws Exception {
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxrwxr-x"));
        assertThat(error("alerts:\n  - script: " + script + "\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: alerts:"
                + " script: alert script " + script + " is mode 775, writable by others than root, and its contents"
                + " run as root; chmod go-w " + script);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(error("alerts:\n  - script: " + script + "\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: alerts:"
                + " script: " + script + " is not executable; chmod 0755 " + script);
        assertThat(error("alerts:\n  - script: alert.sh\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: alerts: script:"
                + " [alert.sh] is not an absolute path; write e.g. /etc/ha.d/alert.sh");
        assertThat(error("alerts:\n  - script: " + dir.resolve("none.sh") + "\n")).startsWith(
                "/etc/ha.d/jheartbeat.yaml:2: alerts: script: " + dir.resolve("none.sh") + " does not exist");
    }

    @Test
    void everyOtherMistakeIsOneLineWithWhatToDoAndAllAreReportedAtOnce() {
        String all = error("alerts:\n"
                + "  - script: " + script + "\n"
                + "    timeout: soon\n"
                + "    rate_limit: 10 per minute\n"
                + "  - mail:\n"
                + "      to: [\"a b@c\"]\n"
                + "      smtp: mail:port\n"
                + "  - mail: {from: x@y}\n"
                + "  - script: " + script + "\n"
                + "    mail: {to: [root]}\n");
        assertThat(all.split("\n")).containsExactly(
                "/etc/ha.d/jheartbeat.yaml:3: alerts: timeout: timeout [soon] does not parse: write a whole number"
                        + " with ms, s, min or h, e.g. 90s or 2min (a bare number is seconds)",
                "/etc/ha.d/jheartbeat.yaml:4: alerts: rate_limit: [10 per minute] is not COUNT/PERIOD; write e.g."
                        + " 10/min (periods: s, min, h, day; count at least 1)",
                "/etc/ha.d/jheartbeat.yaml:6: alerts: mail: to: [a b@c] is not a mail address; write user@example.com"
                        + " or a local user name, one per list item",
                "/etc/ha.d/jheartbeat.yaml:7: alerts: mail: smtp mail:port: port port is not a number in 1..65535;"
                        + " write HOST or HOST:PORT, e.g. mail.example.com:25",
                "/etc/ha.d/jheartbeat.yaml:8: alerts: mail: has no to:; add to: [root] or to: [ops@example.com]",
                "/etc/ha.d/jheartbeat.yaml:9: alerts: each entry has exactly one of script: and mail:; split it into"
                        + " two entries");
        assertThat(error("alerts:\n  script: /x\n")).isEqualTo("/etc/ha.d/jheartbeat.yaml:2: alerts: must be a list"
                + " of entries, each starting with '- script: /etc/ha.d/alert.sh' or '- mail: {to: [root]}'");
    }
}
