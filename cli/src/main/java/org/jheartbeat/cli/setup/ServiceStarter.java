package org.jheartbeat.cli.setup;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.cli.runtime.SshTransport;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * The edge that enables and starts the daemon on a node once its files are in place. The default is systemd's
 * unit of the package ({@link #SYSTEMD}); a lab without systemd injects its own way (a shell command, e.g.
 * {@code lab/service-start.sh}, which starts the daemon inside the node's namespaces). The same shell script
 * runs on this node ({@code sh -c}) and on the peer (over the ssh of {@code hb config push}).
 */
public interface ServiceStarter {
    /**
     * The default script: enable the unit and start it, or reload a running daemon (it reads the new files);
     * exit {@value #NOT_INSTALLED} when the package's unit is not there.
     */
    String SYSTEMD = "if ! command -v systemctl >/dev/null 2>&1 || ! systemctl cat jheartbeat.service >/dev/null 2>&1;"
            + " then echo 'jheartbeat.service is not installed' >&2; exit 100; fi\n"
            + "systemctl enable -q jheartbeat.service\n"
            + "if systemctl is-active -q jheartbeat.service; then systemctl reload jheartbeat.service;"
            + " else systemctl start jheartbeat.service; fi\n";
    /** The exit code of a start script that finds no service to start: the package is not installed there. */
    int NOT_INSTALLED = 100;

    /** What a start did. */
    enum Outcome { STARTED, NOT_INSTALLED, FAILED }

    /**
     * The result of one start.
     *
     * @param outcome what happened
     * @param detail  the last line the script printed on stderr ("" if none)
     */
    record Result(Outcome outcome, String detail) {
    }

    /** Starts the daemon on this node. */
    Result startHere() throws UserException;

    /** Starts the daemon on the peer, through {@code ssh}. */
    Result startOnPeer(SshTransport ssh) throws UserException;

    /**
     * A starter that runs {@code script} with {@code sh -c} here and over ssh on the peer: exit 0 is started,
     * {@value #NOT_INSTALLED} not installed, anything else failed.
     *
     * @param timeout how long one start may take
     */
    static ServiceStarter shell(String script, Duration timeout) {
        return new ServiceStarter() {
            @Override
            public Result startHere() throws UserException {
                ProcessResult r;
                try {
                    r = new OsProcessRunner().run(new ProcessSpec(List.of("sh", "-c", script), Map.of(), timeout));
                } catch (IOException e) {
                    return new Result(Outcome.FAILED, "cannot run sh: " + e.getMessage());
                }
                if (r.timedOut()) {
                    return new Result(Outcome.FAILED, "did not finish within " + timeout.toSeconds() + " s");
                }
                return result(r.exitCode(), r.stderr());
            }

            @Override
            public Result startOnPeer(SshTransport ssh) throws UserException {
                SshTransport.Reply r = ssh.run(script, new byte[0]);
                if (r.code() == 255) {
                    return new Result(Outcome.FAILED, ssh.describeFailure(r, "", "--peer"));
                }
                return result(r.code(), r.err());
            }
        };
    }

    private static Result result(int code, String stderr) {
        String[] lines = stderr.strip().split("\n");
        String last = lines[lines.length - 1].strip();
        return new Result(code == 0 ? Outcome.STARTED : code == NOT_INSTALLED ? Outcome.NOT_INSTALLED : Outcome.FAILED,
                code == 0 || code == NOT_INSTALLED ? last : last + " (exit " + code + ")");
    }
}
