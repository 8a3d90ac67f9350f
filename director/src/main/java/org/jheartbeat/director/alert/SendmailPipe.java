package org.jheartbeat.director.alert;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

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
        Process p = new ProcessBuilder(List.of(program.toString(), "-t", "-oi")).redirectErrorStream(true).start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread drain = new Thread(() -> drain(p.getInputStream(), output), "lvs-sendmail-output");
        drain.setDaemon(true);
        drain.start();
        try {
            try (OutputStream in = p.getOutputStream()) {
                in.write(message.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                // the program closed its input early; its exit status says whether that was a failure
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IOException(program + " did not finish within " + timeout.toSeconds() + " s (killed)");
            }
            drain.join(1000);
            if (p.exitValue() != 0) {
                String out;
                synchronized (output) {
                    out = output.toString(StandardCharsets.UTF_8).strip();
                }
                throw new IOException(program + " exited with status " + p.exitValue()
                        + (out.isEmpty() ? "" : ": " + out));
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(program + " interrupted");
        }
    }

    private static void drain(InputStream in, ByteArrayOutputStream keep) {
        byte[] buf = new byte[4096];
        try (in) {
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (keep) {
                    int room = MAX_OUTPUT - keep.size();
                    if (room > 0) {
                        keep.write(buf, 0, Math.min(room, n));
                    }
                }
            }
        } catch (IOException e) {
            // the program is gone
        }
    }
}
