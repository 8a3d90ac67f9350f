package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.junit.jupiter.api.Test;

/**
 * {@link SshTransport#run} through the core runner, with a local stand-in for ssh: {@code sh -c}
 * whose "host" is {@code $0} and whose remote script is {@code $1}.
 */
class SshTransportTest {
    private static final List<String> LOCAL_SSH = List.of("/bin/sh", "-c", "exec /bin/sh -c \"$1\"");

    @Test
    void stdinReachesTheScriptAndOutputAndExitCodeComeBackByteExact() throws Exception {
        byte[] content = {'h', 'a', 0, (byte) 0xfe, '\n'};
        SshTransport.Reply r = new SshTransport(LOCAL_SSH, "peer", 30)
                .run("cat; echo 'jhb-push: done' >&2; exit 3", content);
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.out()).containsExactly(content);
        assertThat(r.err()).isEqualTo("jhb-push: done\n");
    }

    @Test
    void aCallThatDoesNotFinishIsOneLineAboutTheHost() {
        assertThatThrownBy(() -> new SshTransport(LOCAL_SSH, "peer", 1).run("sleep 30", new byte[0]))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.FAILURE))
                .hasMessage("ssh to peer did not finish within 1 s; check that peer answers (ssh peer true)");
    }

    @Test
    void aHundredMegabyteAnswerIsRefusedWithoutHoldingIt() {
        // a real process writing 100 MB to stdout and 100 MB to stderr
        assertThatThrownBy(() -> new SshTransport(LOCAL_SSH, "peer", 120).run(
                "head -c 104857600 /dev/zero; head -c 104857600 /dev/zero >&2", new byte[0]))
                .isInstanceOfSatisfying(UserException.class, e -> assertThat(e.exitCode()).isEqualTo(ExitCodes.FAILURE))
                .hasMessageStartingWith("the answer from peer is larger than 16 MiB (104857600 bytes)");
    }

    @Test
    void aMissingSshProgramSaysWhatToInstall() {
        assertThatThrownBy(() -> new SshTransport(List.of("/nonexistent/ssh"), "peer", 5)
                .run("true", "x".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(UserException.class)
                .hasMessageStartingWith("cannot run /nonexistent/ssh (Cannot run program \"/nonexistent/ssh\"")
                .hasMessageEndingWith("); install openssh-client or pass --ssh \"CMD\"");
    }
}
