package org.jheartbeat.cli.setup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.cli.error.UserException;
import org.junit.jupiter.api.Test;

/** The prompt flow of hb setup on a scripted terminal, and its refusal without one. */
class SetupPromptsTest {
    static final HostInventory INV = new HostInventory(List.of(new HostInventory.Iface("eth0", "198.18.0.1", true, 24),
            new HostInventory.Iface("eth1", "198.18.1.1", false, 24)), List.of("/dev/ttyS0"));

    /** Answers from a script; records what was shown. */
    static final class Scripted implements SetupPrompts.Terminal {
        final Deque<String> answers;
        final List<String> shown = new ArrayList<>();

        Scripted(String... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public String readLine(String prompt) {
            shown.add(prompt);
            return answers.poll();
        }

        @Override
        public void println(String line) {
            shown.add(line);
        }
    }

    private static SetupPrompts.Given none() {
        return new SetupPrompts.Given(null, List.of(), List.of(), null);
    }

    @Test
    void onATerminalItOffersTheDetectedLinksAndAsksForTheRest() throws Exception {
        // peer name (first a bad one), Enter = the offered crossover eth1, its peer address (first a bad one),
        // no serial link, the group
        Scripted t = new Scripted("two words", "node2", "", "nope", "198.18.1.2", "", "node1 198.18.0.100/24/eth0 labweb");
        SetupPrompts.Given g = SetupPrompts.complete(none(), INV, "node1", Optional.of(t));
        assertThat(g).isEqualTo(new SetupPrompts.Given("node2", List.of("eth1:198.18.1.2"), List.of(),
                "node1 198.18.0.100/24/eth0 labweb"));
        String screen = String.join("\n", t.shown);
        assertThat(screen).contains("  eth0       198.18.0.1      default route (the LAN)")
                .contains("  eth1       198.18.1.1      no default route (a crossover cable?)")
                .contains("interfaces, blank-separated (two links are safer than one; '-' for none) [eth1]: ")
                .contains("not an IPv4 address: 'nope'").contains("Serial ports: /dev/ttyS0")
                .contains("e.g. node1 192.168.1.100/24/eth0 apache2");
        SetupAnswers a = SetupPrompts.answers(g, INV, "node1", 19200, "", SetupFilesTest.KEY);
        assertThat(a.ucast()).containsExactly(new SetupAnswers.UcastLink("eth1", "198.18.1.1", "198.18.1.2"));
    }

    @Test
    void theOwnNameAnUnknownInterfaceAndTheOwnAddressAreAskedAgainAtOnce() throws Exception {
        // each would otherwise pass the prompt and be refused only after ssh had been tried
        Scripted t = new Scripted("node1", "node2", "eth9 eth1", "eth1", "198.18.1.1", "198.18.1.2", "", "node1 x");
        SetupPrompts.Given g = SetupPrompts.complete(none(), INV, "node1", Optional.of(t));
        assertThat(g).isEqualTo(new SetupPrompts.Given("node2", List.of("eth1:198.18.1.2"), List.of(), "node1 x"));
        assertThat(t.shown).contains("  node1 is this node's own name; type the other node's",
                "  not up with an IPv4 address here: eth9; type names from the list above",
                "  198.18.1.1 is this node's own address on eth1; type the peer's");
    }

    @Test
    void twoLinksAndASerialOneWhenTyped() throws Exception {
        Scripted t = new Scripted("eth1 eth0", "198.18.1.2", "198.18.0.2", "/dev/ttyS0");
        SetupPrompts.Given g = SetupPrompts.complete(new SetupPrompts.Given("node2", List.of(), List.of(), "node1 x"),
                INV, "node1", Optional.of(t));
        assertThat(g.ucast()).containsExactly("eth1:198.18.1.2", "eth0:198.18.0.2");
        assertThat(g.serial()).containsExactly("/dev/ttyS0");
    }

    @Test
    void withoutATerminalEveryMissingAnswerIsNamedAsItsOption() {
        assertThatThrownBy(() -> SetupPrompts.complete(none(), INV, "node1", Optional.empty()))
                .isInstanceOf(UserException.class).hasMessage("setup: no terminal to ask on; give --peer-name NAME,"
                        + " --ucast IF:PEER_ADDRESS (or --serial DEVICE), --group \"NODE ADDRESS/BITS/IF RESOURCE...\""
                        + " (see hb setup --help)")
                .extracting(e -> ((UserException) e).exitCode()).isEqualTo(64);
        assertThatThrownBy(() -> SetupPrompts.complete(new SetupPrompts.Given("node2", List.of(), List.of("/dev/ttyS0"),
                null), INV, "node1", Optional.empty())).hasMessageContaining("give --group ")
                .hasMessageNotContaining("--peer-name");
    }

    @Test
    void fullOptionsNeedNoTerminalAndTheInputEndingIsAUsageError() throws Exception {
        SetupPrompts.Given full = new SetupPrompts.Given("node2", List.of("eth1:198.18.1.2"), List.of(), "node1 x");
        assertThat(SetupPrompts.complete(full, INV, "node1", Optional.empty())).isEqualTo(full);
        assertThatThrownBy(() -> SetupPrompts.complete(none(), INV, "node1", Optional.of(new Scripted("node2"))))
                .hasMessageContaining("input ended before every answer was given");
    }

    @Test
    void badLinksAreUsageErrorsNamingTheOption() {
        for (String[] c : List.of(new String[] {"eth9:198.18.1.2", "interface eth9 is not up with an IPv4 address"
                + " on this machine (these are: eth0 eth1)"}, new String[] {"eth1", "expected IF:PEER_ADDRESS"},
                new String[] {"eth1:198.18.1.1", "198.18.1.1 is this machine's own address on eth1"})) {
            assertThatThrownBy(() -> SetupPrompts.answers(new SetupPrompts.Given("node2", List.of(c[0]), List.of(),
                    "node1 x"), INV, "node1", 19200, "", "k")).hasMessageContaining("--ucast").hasMessageContaining(c[1]);
        }
        assertThatThrownBy(() -> SetupPrompts.answers(new SetupPrompts.Given("node1", List.of(), List.of("/dev/ttyS0"),
                "node1 x"), INV, "node1", 19200, "", "k")).hasMessageContaining("is this node's own name");
    }
    @Test
    void anEmptyGroupAndALogFileThatIsNotOneAbsolutePathAreUsageErrors() {
        SetupPrompts.Given ok = new SetupPrompts.Given("node2", List.of("eth1:198.18.1.2"), List.of(), "node1 x");
        // an empty --group wrote a haresources with a blank line, and a pair with no group said it was running
        assertThatThrownBy(() -> SetupPrompts.answers(new SetupPrompts.Given("node2", List.of("eth1:198.18.1.2"),
                List.of(), " "), INV, "node1", 19200, "", "k")).hasMessageStartingWith("setup: --group is empty;")
                .extracting(e -> ((UserException) e).exitCode()).isEqualTo(64);
        // lab: 'ha-log' went to each daemon's working directory, '/var/lib/jheartbeat/my log' to a file 'log' there
        for (String bad : List.of("ha-log", "/var/lib/jheartbeat/my log")) {
            assertThatThrownBy(() -> SetupPrompts.answers(ok, INV, "node1", 19200, bad, "k"))
                    .hasMessage("setup: --logfile '" + bad + "': give an absolute path without blanks, e.g."
                            + " /var/log/jheartbeat/ha-log, or 'none' for syslog only");
        }
    }
}
