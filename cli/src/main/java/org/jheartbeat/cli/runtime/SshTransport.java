package org.jheartbeat.cli.runtime;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jheartbeat.cli.error.ExitCodes;
import org.jheartbeat.cli.error.UserException;
import org.jheartbeat.core.exec.BoundedOutput;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Runs a shell script on another machine through an ssh command line ({@code hb config push}):
 * {@code SSH... HOST SCRIPT}, with bytes on its standard input. Every failure becomes one line
 * saying what went wrong (unreachable, permission denied, remote directory missing...).
 *
 * @param ssh      the ssh command and its options, e.g. {@code ssh -o BatchMode=yes}
 * @param host     the address or name to connect to
 * @param timeoutS how long one call may take
 */
public record SshTransport(List<String> ssh, String host, long timeoutS) {
    /** Its timeouts are this class's message ("did not finish within"), not a second log line. */
    private static final OsProcessRunner RUNNER = OsProcessRunner.callerReportsTimeouts();
    /**
     * Most bytes of standard output kept: 16 MiB, room for every config file the push fetches (each at most
     * 1 MiB, the limit of the config reader); more is refused, not held in memory.
     */
    static final int MAX_OUT = 16 << 20;
    /** Most bytes of standard error kept (its first 64 KiB; the reason of a failure comes first). */
    static final int MAX_ERR = 64 << 10;

    /** What the remote script printed and its exit code (255: ssh itself failed). */
    public record Reply(int code, byte[] out, String err) {
    }

    /** Splits an {@code --ssh} value on blanks (no quoting, as rsync's {@code -e} in its simple form). */
    public static List<String> split(String command) {
        List<String> argv = new ArrayList<>();
        for (String s : command.trim().split("\\s+")) {
            if (!s.isEmpty()) {
                argv.add(s);
            }
        }
        return argv;
    }

    /**
     * Runs {@code script} on the host, through the core runner's streaming variant
     * ({@link OsProcessRunner#stream}): on timeout or interrupt the ssh process tree is killed.
     *
     * @throws UserException exit 1 if ssh cannot be started, the call times out or is interrupted
     */
    public Reply run(String script, byte[] stdin) throws UserException {
        List<String> argv = new ArrayList<>(ssh);
        argv.add(host);
        argv.add(script);
        BoundedOutput out = new BoundedOutput(MAX_OUT);
        BoundedOutput err = new BoundedOutput(MAX_ERR);
        ProcessExit exit;
        try {
            // if ssh exits early (e.g. unreachable) the rest of stdin is dropped; its exit code and stderr tell why
            exit = RUNNER.stream(new ProcessSpec(argv, Map.of(), Duration.ofSeconds(timeoutS)),
                    new ByteArrayInputStream(stdin), out, err);
        } catch (InterruptedIOException e) {
            throw new UserException(ExitCodes.FAILURE, "interrupted while talking to " + host);
        } catch (IOException e) {
            throw new UserException(ExitCodes.FAILURE, "cannot run " + ssh.get(0) + " (" + e.getMessage()
                    + "); install openssh-client or pass --ssh \"CMD\"");
        }
        if (exit.timedOut()) {
            throw new UserException(ExitCodes.FAILURE, "ssh to " + host + " did not finish within " + timeoutS
                    + " s; check that " + host + " answers (ssh " + host + " true)");
        }
        if (out.dropped() > 0) {
            throw new UserException(ExitCodes.FAILURE, "the answer from " + host + " is larger than " + (MAX_OUT >> 20)
                    + " MiB (" + (out.size() + out.dropped()) + " bytes); its config files cannot be that large: check"
                    + " what ssh " + host + " prints on login (a banner or profile script writing to stdout)");
        }
        return new Reply(exit.exitCode(), out.toByteArray(), err.text());
    }

    /**
     * The one line that explains a failed call.
     *
     * @param remoteDir the directory the script worked in, for "missing"
     */
    public String describeFailure(Reply r, String remoteDir) {
        return describeFailure(r, remoteDir, "--to");
    }

    /**
     * As {@link #describeFailure(Reply, String)}, for a command whose option naming the peer is {@code hostOption}
     * ({@code --peer} for {@code hb report} and {@code hb web}; {@code --to} for {@code hb config push}).
     */
    public String describeFailure(Reply r, String remoteDir, String hostOption) {
        String last = lastLine(r.err());
        if (r.code() == ConfigPush.NO_REMOTE_DIR && last.startsWith("jhb-push:")) {
            return "directory " + remoteDir + " does not exist on " + host + "; create it there or pass --remote-dir DIR";
        }
        if (r.code() == 255) {
            String all = r.err();
            if (all.contains("Permission denied")) {
                return "ssh to " + host + ": permission denied (" + last + "); " + host
                        + " must accept this machine's key for root, or pass --ssh \"ssh -i KEY -l USER ...\"";
            }
            if (all.contains("Host key verification failed")) {
                return "ssh to " + host + ": host key verification failed; connect once with ssh " + host
                        + " to check and accept its key";
            }
            for (String s : List.of("Connection timed out", "No route to host", "Connection refused",
                    "Network is unreachable", "Could not resolve hostname", "Connection closed",
                    "Operation timed out")) {
                if (all.contains(s)) {
                    return "cannot reach " + host + " over ssh (" + last + "); check the address, or pass " + hostOption + " HOST";
                }
            }
            return "ssh to " + host + " failed: " + (last.isEmpty() ? "exit 255" : last);
        }
        return "on " + host + ": " + (last.isEmpty() ? "remote command failed" : last.replaceFirst("^jhb-push: ", ""))
                + " (exit " + r.code() + ")";
    }

    /** The last non-blank line of {@code text}, trimmed ("" if none). */
    static String lastLine(String text) {
        String[] lines = text.split("\r?\n|\r");
        for (int i = lines.length - 1; i >= 0; i--) {
            if (!lines[i].isBlank()) {
                return lines[i].trim();
            }
        }
        return "";
    }
}
