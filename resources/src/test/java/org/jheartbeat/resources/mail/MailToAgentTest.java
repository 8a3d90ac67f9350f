package org.jheartbeat.resources.mail;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.resources.AgentOutcome;
import org.jheartbeat.resources.ResourceAgentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in MailTo with a real sendmail stand-in (a script that keeps its argv and stdin). */
class MailToAgentTest {
    private static final Clock WALL = Clock.fixed(Instant.parse("2026-12-06T03:12:04Z"), ZoneId.of("UTC"));
    @TempDir
    Path dir;

    private Path sendmail(String extra) throws Exception {
        Path p = dir.resolve("sendmail");
        Files.writeString(p, "#!/bin/sh\necho \"$*\" >> " + dir.resolve("argv") + "\ncat >> " + dir.resolve("mails")
                + "\necho --- >> " + dir.resolve("mails") + "\n" + extra + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private MailToAgent agent(String token, List<String> args, Path sendmail) {
        return new MailToAgent(MailToSpec.parse(args, token), token, new OsProcessRunner(), sendmail,
                dir.resolve("run"), WALL, "node1");
    }

    @Test
    void startAndStopMailTheRecipientsAndStatusFollows() throws Exception {
        TimeZone before = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        try {
            MailToAgent a = agent("MailTo::root,ops@example.com::WebServer", List.of("root,ops@example.com",
                    "WebServer"), sendmail(""));
            assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
            assertThat(a.start().outcome()).isEqualTo(AgentOutcome.OK);
            assertThat(a.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
            assertThat(a.stop().outcome()).isEqualTo(AgentOutcome.OK);
            assertThat(a.status().outcome()).isEqualTo(AgentOutcome.STOPPED);
        } finally {
            TimeZone.setDefault(before);
        }
        assertThat(Files.readAllLines(dir.resolve("argv"))).containsExactly("-t -oi", "-t -oi");
        String mails = Files.readString(dir.resolve("mails"));
        assertThat(mails).contains("To: root, ops@example.com\n"
                + "Subject: WebServer Takeover in progress at Sun Dec  6 03:12:04 UTC 2026 on node1\n");
        assertThat(mails).contains("Subject: WebServer Migrating resource away at Sun Dec  6 03:12:04 UTC 2026"
                + " from node1\n");
        assertThat(mails).contains("MailTo::root,ops@example.com::WebServer");
    }

    @Test
    void aMailThatCannotBeSentNeverFailsTheStart() throws Exception {
        MailToAgent broken = agent("MailTo::root", List.of("root"), sendmail("exit 75"));
        assertThat(broken.start().outcome()).isEqualTo(AgentOutcome.OK);
        assertThat(broken.start().message()).contains("mail not sent").contains("exited with status 75");
        assertThat(broken.status().outcome()).isEqualTo(AgentOutcome.RUNNING);
        MailToAgent none = agent("MailTo::root::x", List.of("root", "x"), dir.resolve("no-sendmail"));
        assertThat(none.start().message()).contains("install a mail transfer agent");
        assertThat(none.stop().outcome()).isEqualTo(AgentOutcome.OK);
    }

    @Test
    void argumentsAreReadAsHeartbeatAndResourceAgentsReadThem() {
        assertThat(MailToSpec.parse(List.of("root"), "MailTo::root")).isEqualTo(new MailToSpec(List.of("root"),
                "Resource Group"));
        assertThat(MailToSpec.parse(List.of("a@b.c d@e.f\troot", "Big\nServer"), "t"))
                .isEqualTo(new MailToSpec(List.of("a@b.c", "d@e.f", "root"), "Big Server"));
        assertThat(MailToSpec.ofOcf(Map.of("email", "root", "subject", "Web"), "t"))
                .isEqualTo(new MailToSpec(List.of("root"), "Web"));
        assertThatThrownBy(() -> MailToSpec.parse(List.of(), "MailTo")).isInstanceOf(ResourceAgentException.class)
                .hasMessage("MailTo takes ADDRESS[,ADDRESS...][::SUBJECT], [MailTo] does not; write e.g."
                        + " MailTo::root::WebServer or MailTo::ops@example.com,root");
        assertThatThrownBy(() -> MailToSpec.ofOcf(Map.of("subject", "x"), "ocf:heartbeat:MailTo::subject=x"))
                .isInstanceOf(ResourceAgentException.class);
        assertThat(MailToAgent.fileName("MailTo::root::a b")).startsWith("MailTo__root__a_b-");
    }
}
