package org.jheartbeat.resources.ocf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.core.config.AgentRef;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Meta-data of the real agents of Debian's resource-agents, and hostile documents. */
class OcfMetadataTest {
    @TempDir
    Path dir;

    private static OcfMetadata real(String type) {
        assumeTrue(Files.isExecutable(OcfDirectory.DEFAULT_ROOT.resolve("resource.d/heartbeat").resolve(type)),
                "resource-agents is installed (scripts/setup.sh)");
        return new OcfDirectory(OcfDirectory.DEFAULT_ROOT, new OsProcessRunner())
                .metadata(new AgentRef.Ocf("heartbeat", type, Map.of(), OperationTimeouts.NONE), type);
    }

    @Test
    void ipaddr2() {
        OcfMetadata md = real("IPaddr2");
        assertThat(md.name()).isEqualTo("IPaddr2");
        assertThat(md.parameterNames()).startsWith("ip", "nic", "cidr_netmask").contains("arp_count");
        OcfMetadata.Parameter ip = md.parameters().get(0);
        assertThat(ip.required()).isTrue();
        assertThat(ip.unique()).isTrue();
        assertThat(ip.type()).isEqualTo("string");
        assertThat(ip.shortdesc()).isEqualTo("IPv4 or IPv6 address");
        assertThat(md.parameters()).filteredOn(p -> p.name().equals("arp_count")).singleElement()
                .satisfies(p -> assertThat(p.defaultValue()).contains("5"));
        assertThat(md.parameters()).filteredOn(p -> p.name().equals("nic")).singleElement()
                .satisfies(p -> assertThat(p.defaultValue()).isEmpty());
        assertThat(md.timeout("start")).contains(Duration.ofSeconds(20));
        assertThat(md.timeout("monitor")).isPresent();
    }

    @Test
    void filesystem() {
        OcfMetadata md = real("Filesystem");
        assertThat(md.parameters()).filteredOn(OcfMetadata.Parameter::required).extracting(OcfMetadata.Parameter::name)
                .containsExactly("device", "directory", "fstype");
        assertThat(md.parameterNames()).contains("options", "run_fsck", "force_unmount");
        assertThat(md.timeout("start")).contains(Duration.ofSeconds(60));
        assertThat(md.timeout("stop")).contains(Duration.ofSeconds(60));
        assertThat(md.timeout("monitor")).contains(Duration.ofSeconds(40));
        assertThat(md.timeout("promote")).isEmpty();
    }

    @Test
    void externalEntitiesAreNeverResolved() throws Exception {
        Path secret = dir.resolve("secret");
        Files.writeString(secret, "TOPSECRET");
        String xml = """
                <?xml version="1.0"?>
                <!DOCTYPE resource-agent [ <!ENTITY x SYSTEM "file://%s"> ]>
                <resource-agent name="evil"><shortdesc>&x;</shortdesc><parameters/></resource-agent>
                """.formatted(secret);
        assertThatThrownBy(() -> OcfMetadata.parse(xml)).isInstanceOf(OcfMetadataException.class)
                .hasMessage("meta-data declares XML entities (<!ENTITY): refused");
        // a DTD that would be fetched is not: the agents' own DOCTYPE names one
        OcfMetadata md = OcfMetadata.parse("""
                <?xml version="1.0"?>
                <!DOCTYPE resource-agent SYSTEM "file://%s">
                <resource-agent name="x"><shortdesc>fine</shortdesc></resource-agent>
                """.formatted(secret));
        assertThat(md.shortdesc()).isEqualTo("fine");
    }

    @Test
    void billionLaughsAndOversizedAndBrokenDocumentsAreRefused() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE resource-agent [ <!ENTITY l0 \"lol\">");
        for (int i = 1; i < 12; i++) {
            dtd.append("<!ENTITY l").append(i).append(" \"").append(("&l" + (i - 1) + ";").repeat(10)).append("\">");
        }
        String bomb = "<?xml version=\"1.0\"?>" + dtd + "]><resource-agent name=\"b\"><shortdesc>&l11;</shortdesc>"
                + "</resource-agent>";
        assertThatThrownBy(() -> OcfMetadata.parse(bomb)).hasMessageContaining("declares XML entities");
        assertThatThrownBy(() -> OcfMetadata.parse("<resource-agent>" + " ".repeat(OcfMetadata.MAX_BYTES)
                + "</resource-agent>")).hasMessageContaining("bytes, more than");
        assertThatThrownBy(() -> OcfMetadata.parse("<resource-agent name=\"x\">")).hasMessageContaining("not well-formed");
        assertThatThrownBy(() -> OcfMetadata.parse("<html/>")).hasMessageContaining("not <resource-agent>");
        assertThatThrownBy(() -> OcfMetadata.parse("<resource-agent><parameters><parameter/></parameters>"
                + "</resource-agent>")).hasMessageContaining("without a name");
    }

    @Test
    void unparsableActionTimeoutsFallBackToTheDefault() {
        OcfMetadata md = OcfMetadata.parse("<resource-agent name=\"d\"><actions><action name=\"start\" timeout=\"soon\"/>"
                + "<action name=\"stop\" timeout=\"15s\"/></actions></resource-agent>");
        assertThat(md.timeout("start")).isEqualTo(Optional.empty());
        assertThat(md.timeout("stop")).contains(Duration.ofSeconds(15));
    }
}
