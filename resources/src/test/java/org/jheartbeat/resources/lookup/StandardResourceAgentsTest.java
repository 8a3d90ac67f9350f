package org.jheartbeat.resources.lookup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.testkit.RecordingProcessRunner;
import org.jheartbeat.resources.AgentNotFoundException;
import org.jheartbeat.resources.ResourceAgentException;
import org.jheartbeat.resources.ip.GratuitousArp;
import org.jheartbeat.resources.ip.IpAddrAgent;
import org.jheartbeat.resources.ip.IpAddrSpecException;
import org.jheartbeat.resources.ip.IpCommands;
import org.jheartbeat.resources.script.ScriptAgent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandardResourceAgentsTest {
    @TempDir
    Path tmp;
    private Path configDir;
    private Path initDir;
    private StandardResourceAgents agents;

    @BeforeEach
    void dirs() throws IOException {
        configDir = Files.createDirectories(tmp.resolve("ha.d"));
        Files.createDirectories(configDir.resolve("resource.d"));
        initDir = Files.createDirectories(tmp.resolve("init.d"));
        agents = new StandardResourceAgents(ScriptLocator.of(configDir, initDir), new RecordingProcessRunner(),
                IpCommands.DEFAULT, GratuitousArp.DEFAULT, Runnable::run);
    }

    private static Path executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\nexit 0\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private static ResourceSpec spec(String agent, String... args) {
        return new ResourceSpec(agent, List.of(args), String.join("::", Stream.concat(Stream.of(agent), Stream.of(args)).toList()));
    }

    @Test
    void resourceDirComesBeforeInitDir() throws IOException {
        Path inResourceD = executable(configDir.resolve("resource.d/labweb"));
        executable(initDir.resolve("labweb"));
        var agent = (ScriptAgent) agents.forSpec(spec("labweb", "8080"));
        assertThat(agent.script()).isEqualTo(inResourceD);
        assertThat(agent.args()).containsExactly("8080");
        assertThat(agent.argv("start")).containsExactly(inResourceD.toString(), "8080", "start");
    }

    @Test
    void ldirectordIsBuiltInUnlessResourceDHasItsOwn() throws IOException {
        Path wrapper = executable(tmp.resolve("ldirectord-wrapper"));
        String before = System.getProperty("jheartbeat.ldirectord");
        System.setProperty("jheartbeat.ldirectord", wrapper.toString());
        try {
            var builtin = (ScriptAgent) agents.forSpec(spec("ldirectord", "ldirectord.cf"));
            assertThat(builtin.argv("start")).containsExactly(wrapper.toString(), "ldirectord.cf", "start");
            assertThat(new AgentCheck(ScriptLocator.of(configDir, initDir), new org.jheartbeat.resources.ocf.OcfDirectory(tmp.resolve("ocf"), new RecordingProcessRunner()), List.of())
                    .check(spec("ldirectord", "ldirectord.cf"))).isEmpty();
            Path own = executable(configDir.resolve("resource.d/ldirectord"));
            assertThat(((ScriptAgent) agents.forSpec(spec("ldirectord", "ldirectord.cf"))).script()).isEqualTo(own);
        } finally {
            if (before == null) {
                System.clearProperty("jheartbeat.ldirectord");
            } else {
                System.setProperty("jheartbeat.ldirectord", before);
            }
        }
    }

    @Test
    void initDirIsTheFallback() throws IOException {
        Path inInit = executable(initDir.resolve("apache2"));
        assertThat(((ScriptAgent) agents.forSpec(spec("apache2"))).script()).isEqualTo(inInit);
    }

    @Test
    void nonExecutableOrNonRegularFilesAreSkipped() throws IOException {
        Files.writeString(configDir.resolve("resource.d/labweb"), "#!/bin/sh\n");
        Path inInit = executable(initDir.resolve("labweb"));
        assertThat(((ScriptAgent) agents.forSpec(spec("labweb"))).script()).isEqualTo(inInit);
        Files.createDirectories(configDir.resolve("resource.d/dirscript"));
        assertThatThrownBy(() -> agents.forSpec(spec("dirscript"))).isInstanceOf(AgentNotFoundException.class);
    }

    @Test
    void missingScriptNamesTheResourceAndBothPaths() {
        assertThatThrownBy(() -> agents.forSpec(spec("nosuch", "x")))
                .isInstanceOfSatisfying(AgentNotFoundException.class, e -> {
                    assertThat(e.resource()).isEqualTo("nosuch::x");
                    assertThat(e.lookedIn()).containsExactly(configDir.resolve("resource.d/nosuch"),
                            initDir.resolve("nosuch"));
                    assertThat(e.getMessage()).isEqualTo("Cannot locate resource script for nosuch::x: "
                            + "no regular executable file at " + configDir.resolve("resource.d/nosuch")
                            + " or " + initDir.resolve("nosuch"));
                });
    }

    @Test
    void pathLikeNamesAreRejected() {
        assertThatThrownBy(() -> agents.forSpec(spec("../bin/sh"))).isInstanceOf(ResourceAgentException.class)
                .hasMessageContaining("Bad resource script name");
    }

    @Test
    void ipAgentsAreBuiltIn() {
        assertThat(agents.forSpec(new ResourceSpec("IPaddr", List.of("198.18.0.100/24/eth0"), "198.18.0.100/24/eth0")))
                .isInstanceOfSatisfying(IpAddrAgent.class,
                        a -> assertThat(a.spec().toString()).isEqualTo("198.18.0.100/24/eth0"));
        assertThat(agents.forSpec(spec("IPaddr2", "198.18.0.101"))).isInstanceOf(IpAddrAgent.class);
        assertThatThrownBy(() -> agents.forSpec(spec("IPaddr"))).isInstanceOf(IpAddrSpecException.class);
        assertThatThrownBy(() -> agents.forSpec(spec("IPaddr", "198.18.0.300"))).isInstanceOf(IpAddrSpecException.class);
    }
}
