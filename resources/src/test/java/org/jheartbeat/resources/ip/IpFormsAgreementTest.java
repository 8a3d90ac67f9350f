package org.jheartbeat.resources.ip;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.resources.lookup.StandardResourceAgents;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The config check and the IP agent must agree on every address form: a haresources line that
 * {@code hb config check} accepts is one whose IP resources the agent can build at takeover, and one
 * it refuses is refused by the agent too. Each form is written after {@code IPaddr::}, after
 * {@code IPaddr2::} and, when it starts with a digit and has four dotted parts, bare (Heartbeat's IP
 * shorthand). A trailing blank only ends the token (haresources separates tokens with blanks).
 */
class IpFormsAgreementTest {
    private static final Path FILE = Path.of("/etc/ha.d/haresources");
    private static final List<NodeName> NODES = List.of(NodeName.of("node1"), NodeName.of("node2"));

    @ParameterizedTest(name = "[{0}] accepted={1}")
    @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
        "198.18.0.100|true",
        "198.18.0.100/24|true",
        "198.18.0.100/32|true",
        "198.18.0.100/255.255.255.128|true",
        "198.18.0.100/255.255.255.128/eth0|true",
        "198.18.0.100/255.0.255.0/eth0|false",
        "198.18.0.100/0.0.0.0/eth0|false",
        "198.18.0.100/24/eth0|true",
        "198.18.0.100//eth0|true",
        "198.18.0.100/24/eth0/198.18.0.255|true",
        "198.18.0.100/24/198.18.0.255|true",
        "198.18.0.100/24/eth0:web|true",
        "198.18.0.100/24/eth0:web/198.18.0.255|true",
        "198.18.0.100/24/eth0:abcdefghijk|false",
        "198.18.0.100/24/eth0:|false",
        "198.18.0.100/0/eth0|false",
        "198.18.0.100/33|false",
        "198.18.0.100/x/eth0|false",
        "010.0.0.5|false",
        "198.18.0.05/24/eth0|false",
        "198.18.0.256|false",
        "198.18.0.100.5|false",
        "198.18.0.100.5.6/24|false",
        "198.18.0|false",
        "198.18..100|false",
        "198.18.0.-1|false",
        "198.18.0.100/24/eth0/198.18.0.999|false",
        "198.18.0.100/24/198.18.0.255/eth0|false",
        "198.18.0.100/24/eth0/198.18.0.255/x|false",
        "198.18.0.100/24/averyveryverylongname|false",
        " 198.18.0.100|false",
        "198.18.0.100 |true",
        "2001:db8::1|false",
        "fe80::1/64/eth0|false",
        "198.18.0.100::eth0|false",
        "198.18.0.100::24|false",
        "''|false",
    })
    void configCheckAndAgentAgree(String form, boolean accepted) {
        List<String> lines = new ArrayList<>(List.of("IPaddr::" + form, "IPaddr2::" + form));
        if (!form.isEmpty() && Character.isDigit(form.charAt(0)) && form.split("\\.", -1).length >= 4) {
            lines.add(form);
        }
        for (String resource : lines) {
            String text = "node1 " + resource + "\n";
            boolean checkAccepts = !HaresourcesParser.parse(FILE, text, NODES).hasErrors();
            boolean agentAccepts = agentAccepts(text);
            assertThat(agentAccepts).as("agent vs config check on [%s]", text).isEqualTo(checkAccepts);
            assertThat(checkAccepts).as("verdict on [%s]: %s", text, errors(text)).isEqualTo(accepted);
        }
    }

    /**
     * What the daemon does with the file: split the line into blank-separated tokens, parse each as a
     * resource, and build the IP agent's spec for each IPaddr/IPaddr2 resource, as
     * {@link StandardResourceAgents#forSpec} does at takeover.
     */
    private static boolean agentAccepts(String text) {
        String[] tokens = text.strip().split("[ \t]+");
        if (tokens.length < 2) {
            return false;
        }
        for (int i = 1; i < tokens.length; i++) {
            ResourceSpec spec = HaresourcesParser.resource(tokens[i]).orElse(null);
            if (spec == null) {
                return false;
            }
            if (StandardResourceAgents.IP_AGENTS.contains(spec.agent())) {
                try {
                    IpAddrSpec.parse(spec.agent(), spec.args());
                } catch (IpAddrSpecException e) {
                    return false;
                }
            }
        }
        return true;
    }

    private static List<String> errors(String text) {
        return HaresourcesParser.parse(FILE, text, NODES).diagnostics().stream().map(ConfigDiagnostic::format).toList();
    }
}
