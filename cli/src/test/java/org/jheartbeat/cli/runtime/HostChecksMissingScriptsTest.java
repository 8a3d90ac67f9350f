package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HostChecks#missingScripts}: the script problems the daemon demotes to its group's failure. */
class HostChecksMissingScriptsTest {
    @TempDir
    Path dir;

    @Test
    void eachMissingOrNonExecutableScriptNamesItsGroupAndIsTheSameErrorConfigCheckReports() throws Exception {
        Path cfg = ConfigDirBuilder.validTwoNode().haresources("""
                node1 198.18.0.100/24/eth0 labweb
                node1 198.18.0.102/24/eth0 gone
                node2 198.18.0.101 notexec
                """).writeTo(dir);
        Files.createDirectories(cfg.resolve("resource.d"));
        for (String name : List.of("labweb", "notexec")) {
            Path script = Files.writeString(cfg.resolve("resource.d").resolve(name), "#!/bin/sh\necho stopped\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString(
                    name.equals("labweb") ? "rwxr-xr-x" : "rw-r--r--"));
        }
        var loaded = ConfigLoader.load(cfg, Optional.of(NodeName.of("node1")));
        ClusterConfig config = loaded.config().orElseThrow(() -> new AssertionError(loaded.diagnostics()));
        HostChecks checks = new HostChecks(dir.resolve("no-init.d"));

        List<HostChecks.MissingScript> missing = checks.missingScripts(cfg, config.resourceGroups());

        assertThat(missing).extracting(HostChecks.MissingScript::group).containsExactly(1, 2);
        assertThat(missing).extracting(HostChecks.MissingScript::key)
                .containsExactly("198.18.0.102/24/eth0", "198.18.0.101");
        assertThat(missing.get(0).diagnostic().format()).startsWith(cfg.resolve("haresources") + ":2: ")
                .contains("gone");
        assertThat(missing.get(1).diagnostic().format()).startsWith(cfg.resolve("haresources") + ":3: ")
                .contains("notexec");
        assertThat(checks.check(config)).as("hb config check still reports them")
                .containsAll(missing.stream().map(HostChecks.MissingScript::diagnostic).toList());
        assertThat(missing).allMatch(m -> m.diagnostic().isError());
    }
}
