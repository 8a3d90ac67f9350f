package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.jheartbeat.core.config.ConfigDigest.Part;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigDigestTest {
    @TempDir
    Path dir;

    private int n;

    private ConfigDigest digestOf(ConfigDirBuilder b) {
        Path d = b.writeTo(dir.resolve("c" + n++));
        ConfigLoadResult r = ConfigLoader.load(d, Optional.of(NodeName.of("node1")));
        assertThat(r.hasErrors()).as("%s", r.diagnostics()).isFalse();
        return ConfigDigest.of(r.config().orElseThrow());
    }

    /** A fresh builder (builders are mutable) with both lab groups. */
    private static ConfigDirBuilder base() {
        return ConfigDirBuilder.validTwoNode()
                .haresources("node1 198.18.0.100/24/eth0 labweb\nnode2 198.18.0.101 labweb2\n");
    }

    @Test
    void digestsAreSixtyFourHexCharactersAndStable() {
        ConfigDigest d = digestOf(base());
        assertThat(d.haresources()).matches("[0-9a-f]{64}");
        assertThat(d.authkeys()).matches("[0-9a-f]{64}");
        assertThat(d.haCf()).matches("[0-9a-f]{64}");
        assertThat(digestOf(base())).isEqualTo(d);
        assertThat(ConfigDigest.parse(d.haresources(), d.authkeys(), d.haCf())).isEqualTo(d);
    }

    @Test
    void haresourcesWithCommentsBlankLinesWhitespaceAndContinuationsDigestTheSame() {
        ConfigDigest plain = digestOf(base());
        ConfigDigest messy = digestOf(ConfigDirBuilder.validTwoNode().haresources("""
                # the lab's groups
                node1   198.18.0.100/24/eth0 \\
                        labweb

                \t# node2's
                node2\t198.18.0.101    labweb2
                """));
        assertThat(messy).isEqualTo(plain);
    }

    @Test
    void aChangedGroupChangesOnlyTheHaresourcesDigest() {
        ConfigDigest a = digestOf(base());
        ConfigDigest b = digestOf(ConfigDirBuilder.validTwoNode().haresources("node1 198.18.0.100/24/eth0 labweb\n"));
        assertThat(a.differences(b)).containsExactly(Part.HARESOURCES);
    }

    @Test
    void aChangedKeyChangesOnlyTheAuthkeysDigestAndTheKeyIsNotInIt() {
        ConfigDigest a = digestOf(base());
        ConfigDigest b = digestOf(base().authkeys("auth 1\n1 sha1 othersecret\n"));
        assertThat(a.differences(b)).containsExactly(Part.AUTHKEYS);
        assertThat(a.toString()).doesNotContain("testsecret").doesNotContain("7465737473656372");
        assertThat(digestOf(base().authkeys("auth 1\n1 md5 testsecret-0123456\n")).differences(a)).containsExactly(Part.AUTHKEYS);
    }

    @Test
    void theAuthLineAloneDoesNotCountSoAKeyRolloverIsNoMismatch() {
        ConfigDigest a = digestOf(base().authkeys("auth 1\n1 sha1 testsecret-0123456\n2 sha1 newsecret\n"));
        ConfigDigest b = digestOf(base().authkeys("# rolled over\nauth 2\n1 sha1 testsecret-0123456\n2 sha1 newsecret\n"));
        assertThat(a).isEqualTo(b);
    }

    @Test
    void perNodeHaCfLinesDigestTheSame() {
        ConfigDigest a = digestOf(base());
        ConfigDigest b = digestOf(base().haCfReplace("ucast eth1 198.18.1.2", "ucast eth2 198.18.1.1")
                .haCfAppend("logfile /var/log/ha-log\ndebugfile /var/log/ha-debug\nlogfacility local0\n# note\n"));
        assertThat(b).isEqualTo(a);
    }

    @Test
    void nodeOrderAndEquivalentTimeSpellingsDigestTheSame() {
        ConfigDigest a = digestOf(base());
        ConfigDigest b = digestOf(base().haCfReplace("keepalive 500ms", "keepalive 0.5")
                .haCfReplace("node node1\nnode node2", "node node2 node1"));
        assertThat(b).isEqualTo(a);
    }

    @Test
    void clusterSettingsChangeTheHaCfDigest() {
        ConfigDigest a = digestOf(base());
        assertThat(digestOf(base().haCfReplace("deadtime 3", "deadtime 4")).differences(a)).containsExactly(Part.HA_CF);
        assertThat(digestOf(base().haCfReplace("keepalive 500ms", "keepalive 1")).differences(a))
                .containsExactly(Part.HA_CF);
        assertThat(digestOf(base().haCfReplace("auto_failback on", "auto_failback off")).differences(a))
                .containsExactly(Part.HA_CF);
        assertThat(digestOf(base().haCfReplace("udpport 694", "udpport 695")).differences(a))
                .containsExactly(Part.HA_CF);
        ConfigDigest ping = digestOf(base().haCfAppend("ping 198.18.0.254\n"));
        assertThat(ping.differences(a)).containsExactly(Part.HA_CF);
        assertThat(digestOf(base().haCfAppend("ping 198.18.0.254\nrespawn hacluster /usr/lib/heartbeat/ipfail\n"))
                .differences(ping)).containsExactly(Part.HA_CF);
        assertThat(digestOf(base().haCfAppend("ping 198.18.0.254\ndeadping 5\n")).differences(ping))
                .containsExactly(Part.HA_CF);
    }

    @Test
    void malformedPeerDigestsAreRejected() {
        String h = "a".repeat(64);
        assertThat(ConfigDigest.parse(h, h, null)).isNull();
        assertThat(ConfigDigest.parse(h, h, "A".repeat(64))).isNull();
        assertThat(ConfigDigest.parse(h, h, "a".repeat(63))).isNull();
        assertThat(ConfigDigest.parse(h, h, h)).isNotNull();
    }
}
