package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hb web user add}, in process on real files: where it writes, and which names it refuses. */
class WebUserAddTest {
    @TempDir
    Path dir;

    /** {@code echo PASSWORD | hb web user add ARGS...}. */
    private static HbRun add(String password, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream((password + "\n").getBytes(StandardCharsets.UTF_8)));
        try {
            String[] all = new String[args.length + 3];
            all[0] = "web";
            all[1] = "user";
            all[2] = "add";
            System.arraycopy(args, 0, all, 3, args.length);
            return HbRun.hb(all);
        } finally {
            System.setIn(saved);
        }
    }

    @Test
    void theUsersFileFollowsTheConfigDir() throws Exception {
        HbRun r = add("root-password", "root", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).contains("in " + dir.resolve("web-users"));
        assertThat(Files.readString(dir.resolve("web-users"))).startsWith("root:");
    }

    @Test
    void theUsersFileOfJheartbeatYamlWins() throws Exception {
        Path users = dir.resolve("elsewhere/console-users");
        Files.createDirectories(users.getParent());
        Files.writeString(dir.resolve("jheartbeat.yaml"), "web:\n  users_file: " + users + "\n");
        HbRun r = add("root-password", "root", "--config-dir", dir.toString());
        assertThat(r.code()).as(r.err()).isEqualTo(ExitCodes.OK);
        assertThat(Files.readString(users)).startsWith("root:");
        assertThat(dir.resolve("web-users")).doesNotExist();
    }

    @Test
    void aNameWithoutAnAccountIsRefusedAndOneWithoutAGroupWarned() throws Exception {
        Path etc = Files.createDirectories(dir.resolve("etc"));
        Files.writeString(etc.resolve("passwd"), "root:x:0:0::/root:/bin/sh\ndaemon:x:1:1::/:/usr/sbin/nologin\n"
                + "bob:x:1002:1002::/home/bob:/bin/sh\n");
        Files.writeString(etc.resolve("group"), "root:x:0:\ndaemon:x:1:\nbob:x:1002:\nhaclient:x:2001:bob\n");
        HbRun none = add("a-password", "nosuchuser99", "--config-dir", dir.toString(), "--etc", etc.toString());
        assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(none.err()).contains("web user add: nosuchuser99 is not an account of " + etc.resolve("passwd")
                + ", so it could never log in").doesNotContain("\tat ");
        assertThat(dir.resolve("web-users")).doesNotExist();

        HbRun daemon = add("a-password", "daemon", "--config-dir", dir.toString(), "--etc", etc.toString());
        assertThat(daemon.code()).as(daemon.err()).isEqualTo(ExitCodes.OK);
        assertThat(daemon.err()).contains("warning: daemon is neither root, in the admin group nor in group haclient,"
                + " so it cannot log in yet");
        HbRun bob = add("a-password", "bob", "--config-dir", dir.toString(), "--etc", etc.toString());
        assertThat(bob.code()).as(bob.err()).isEqualTo(ExitCodes.OK);
        assertThat(bob.err()).isEmpty();
        assertThat(Files.readString(dir.resolve("web-users"))).contains("daemon:").contains("bob:");
    }
}
