package org.jheartbeat.director.alert;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jheartbeat.core.exec.BoundedOutput;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessExit;
import org.jheartbeat.core.exec.ProcessSpec;

/**
 * Hands a message to the local mail system as {@code sendmail -t -oi} (recipients from the To
 * header, a lone dot is not the end), the way ldirectord 4.x's Mail::Send does without
 * {@code smtp}. The program is {@code /usr/sbin/sendmail} unless the system property
 * {@value #PROPERTY} names another (tests use a recording script).
 */
public final class SendmailPipe {
    /** The system property that overrides the sendmail program's path. */
    public static final String PROPERTY = "jhb.sendmail";
    /** The default program. */
    public static final Path DEFAULT = Path.of("/usr/sbin/sendmail");
    /** How much of the program's output is kept for the error message, in bytes. */
    static final int MAX_OUTPUT = 2048;

    /** The one process runner; its {@code stream} feeds the message on stdin. */
    private static final OsProcessRunner OS = new OsProcessRunner();

    private final Path program;
    private final Duration timeout;

    /**
     * @param program the sendmail program
     * @param timeout the bound of one run; past it the program is killed and the send fails
     */
    public SendmailPipe(Path program, Duration timeout) {
        this.program = Objects.requireNonNull(program, "program");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** The program named by {@value #PROPERTY}, else {@link #DEFAULT}. */
    public static Path configuredProgram() {
        String p = System.getProperty(PROPERTY);
        return p == null || p.isBlank() ? DEFAULT : Path.of(p);
    }

    /**
     * Runs {@code PROGRAM -t -oi} with the message on its standard input.
     *
     * @throws IOException if it cannot start, exits non-zero (its output is in the message) or
     *                     outlives the timeout
     */
    public void send(String message) throws IOException {
        BoundedOutput output = new BoundedOutput(MAX_OUTPUT);
        // stdout and stderr into one buffer: the message of a failure shows whatever it said
        ProcessExit exit = OS.stream(new ProcessSpec(List.of(program.toString(), "-t", "-oi"), Map.of(), timeout),
                new ByteArrayInputStream(message.getBytes(StandardCharsets.UTF_8)), output, output);
        if (exit.timedOut()) {
            throw new IOException(program + " did not finish within " + timeout.toSeconds() + " s (killed)");
        }
        if (exit.exitCode() != 0) {
            String out = output.text().strip();
            throw new IOException(program + " exited with status " + exit.exitCode()
                    + (out.isEmpty() ? "" : ": " + out));
        }
    }
}
