package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb lvs syncd}'s user errors: one message naming the file and what to do, exit 2, no stack trace. (Its
 * receiving is tested in the director module and the lab: {@code TemplateLinkTest}, {@code DirectorPairSyncIT}.)
 */
class LvsSyncdTest {
    @TempDir
    Path dir;

    private static final String VIRTUAL = "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate\n\tchecktype=on\n";

    @Test
    void aFileWithoutSyncdaemonOrWithoutThisNodesAddressIsRefused() throws Exception {
        Path cfg = dir.resolve("ldirectord.cf");
        Files.writeString(cfg, VIRTUAL);
        HbRun r = HbRun.hb("lvs", "syncd", "--backend", "userspace", cfg.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("hb: " + cfg + ": no syncdaemon; add syncdaemon = IF and syncpeer = ADDR ADDR"
                + " to sync the templates\n");
        // 203.0.113.x (TEST-NET-3) is on no interface of this host
        Files.writeString(cfg, "syncdaemon = eth1\nsyncpeer = 203.0.113.1 203.0.113.2\n" + VIRTUAL);
        r = HbRun.hb("lvs", "syncd", "--backend", "userspace", cfg.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("hb: " + cfg + ": syncpeer must list this node's address on the sync link and"
                + " the other director's (none is this node's)\n");
        Path keys = Files.writeString(dir.resolve("authkeys"), "auth 1\n1 crc\n");
        Files.writeString(cfg, "syncdaemon = lo\nsyncpeer = 127.0.0.1 203.0.113.2\nsyncauthkeys = " + keys + "\n"
                + VIRTUAL);
        r = HbRun.hb("lvs", "syncd", "--backend", "userspace", cfg.toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("hb: " + cfg + ": " + keys + ": the signing key is crc, which authenticates"
                + " nothing; template sync needs sha1 (or md5) so no one else can plant templates\n");
        assertThat(r.err()).doesNotContain("Exception");
    }
}
