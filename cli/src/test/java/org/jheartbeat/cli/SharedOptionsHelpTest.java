package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The shared {@code --config-dir}, {@code --state-dir} and {@code --node-name} mixins keep each command's own help text
 * (from {@code HbMessages.properties}, keyed by the command's qualified name) and their defaults; a key
 * that no longer matches its command would silently fall back to the generic text.
 */
class SharedOptionsHelpTest {

    @ParameterizedTest(name = "hb {0} --help")
    @CsvSource(delimiter = '|', value = {
        "daemon|--config-dir=DIR Configuration directory with ha.cf, authkeys, haresources (default: /etc/ha.d).",
        "daemon|--state-dir=DIR Run-time state: control socket, generation, pid file (default: /var/lib/jheartbeat).",
        "config push|--config-dir=DIR This node's configuration directory (default: /etc/ha.d).",
        "config check|--config-dir=DIR Configuration directory (default: /etc/ha.d).",
        "config diff|--state-dir=DIR The daemon's state directory (default: /var/lib/jheartbeat).",
        "sync run|--config-dir=DIR Configuration directory with ha.cf, haresources, sync.yaml (default: /etc/ha.d).",
        "sync status|--state-dir=DIR The daemon's state directory (default: /var/lib/jheartbeat).",
        "backup restore|--config-dir=DIR Configuration directory holding sync.yaml (default: /etc/ha.d).",
        "backup status|--config-dir=DIR Configuration directory holding sync.yaml (default: /etc/ha.d).",
        "resources list|--config-dir=DIR Configuration directory (default: /etc/ha.d).",
        "stonith status|--config-dir=DIR Configuration directory (default: /etc/ha.d).",
        "cleanup|--state-dir=DIR The daemon's state directory (default: /var/lib/jheartbeat).",
        "cl-status|--state-dir=DIR The daemon's state directory (default: /var/lib/jheartbeat).",
        "standby|--state-dir=DIR The daemon's state directory (default: /var/lib/jheartbeat).",
        "export pacemaker|--config-dir=DIR Configuration directory to export: ha.cf, haresources, authkeys, and"
            + " sync.yaml, jheartbeat.yaml, resource.d if present (default: /etc/ha.d).",
        "daemon|--node-name=NAME This node's name (default: uname -n, lowercased).",
        "config check|--node-name=NAME Also check that this node is listed in ha.cf.",
        "config push|--node-name=NAME This node's name, to find the peer in ha.cf (default: uname -n).",
        "sync status|--node-name=NAME This node's name, as the daemon's --node-name (default: uname -n, lowercased).",
        "sync run|--node-name=NAME This node's name, as the daemon's --node-name (default: uname -n, lowercased).",
        "stonith reset|--node-name=NAME This node's name (default: uname -n).",
        "export pacemaker|--node-name=NAME The node this machine is (default: uname -n when it is a node): its ucast"
            + " lines name the peer's addresses, its interfaces give its own.",
    })
    void eachCommandKeepsItsWording(String command, String expected) {
        String[] words = command.split(" ");
        String[] args = java.util.Arrays.copyOf(words, words.length + 1);
        args[words.length] = "--help";
        HbRun r = HbRun.hb(args);
        assertThat(r.code()).isZero();
        // compared without white space: picocli wraps the help, also after a dot ("sync. yaml")
        assertThat(r.out().replaceAll("\\s+", "")).contains(expected.replaceAll("\\s+", ""));
    }
}
