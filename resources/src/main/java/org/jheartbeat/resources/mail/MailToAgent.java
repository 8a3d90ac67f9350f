package org.jheartbeat.resources.mail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessRunner;
import org.jheartbeat.core.exec.ProcessSpec;
import org.jheartbeat.resources.AgentResult;
import org.jheartbeat.resources.ResourceAgent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The built-in {@code MailTo} resource, as Heartbeat's and resource-agents' MailTo behave: a pseudo resource
 * that holds nothing. Its start mails the recipients {@code SUBJECT Takeover in progress at DATE on HOST},
 * its stop {@code SUBJECT Migrating resource away at DATE from HOST} (DATE as {@code date} prints it, HOST the
 * kernel's host name, {@code uname -n}); its status is whether it was started here (a state file under the
 * run directory, as {@code ha_pseudo_resource} keeps one). A mail that cannot be sent is logged and the
 * start or stop still succeeds, as in Heartbeat: a mail never holds up a takeover, and the send is bounded
 * by {@link #SEND_TIMEOUT}.
 *
 * <p>The mail goes through the local mail system, {@code sendmail -t -oi} (every MTA Debian packages
 * provides {@code /usr/sbin/sendmail}; Heartbeat's script used {@code mail -s}, which hands the message to
 * the same program). The system property {@value #PROPERTY} names another program (tests).
 */
public final class MailToAgent implements ResourceAgent {
    private static final Logger LOG = LoggerFactory.getLogger(MailToAgent.class);
    /** The system property naming the sendmail program. */
    public static final String PROPERTY = "jhb.sendmail";
    /** The default program. */
    public static final Path SENDMAIL = Path.of("/usr/sbin/sendmail");
    /** The bound of one send, as resource-agents' MailTo start and stop timeouts. */
    public static final Duration SEND_TIMEOUT = Duration.ofSeconds(10);
    /** {@code date}'s default form in the C locale. */
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss zzz yyyy",
            Locale.ROOT);

    private final MailToSpec spec;
    private final String token;
    private final ProcessRunner runner;
    private final Path sendmail;
    private final Path stateFile;
    private final Clock wall;
    private final String host;

    /**
     * @param spec     recipients and subject
     * @param token    the haresources token (the mail body names it)
     * @param runner   runs sendmail
     * @param sendmail the sendmail program
     * @param runDir   where the state file lives ({@code /run/jheartbeat})
     * @param wall     the mail's date
     * @param host     this machine's host name
     */
    public MailToAgent(MailToSpec spec, String token, ProcessRunner runner, Path sendmail, Path runDir, Clock wall,
                       String host) {
        this.spec = Objects.requireNonNull(spec, "spec");
        this.token = Objects.requireNonNull(token, "token");
        this.runner = Objects.requireNonNull(runner, "runner");
        this.sendmail = Objects.requireNonNull(sendmail, "sendmail");
        this.stateFile = runDir.resolve("MailTo").resolve(fileName(token));
        this.wall = Objects.requireNonNull(wall, "wall");
        this.host = Objects.requireNonNull(host, "host");
    }

    /** The program named by {@value #PROPERTY}, else {@link #SENDMAIL}. */
    public static Path configuredSendmail() {
        String p = System.getProperty(PROPERTY);
        return p == null || p.isBlank() ? SENDMAIL : Path.of(p);
    }

    /** The kernel's host name ({@code uname -n}); {@code localhost} where it cannot be read. */
    public static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
            return h.isEmpty() ? "localhost" : h;
        } catch (IOException e) {
            return "localhost";
        }
    }

    @Override
    public AgentResult start() {
        String sent = send("Takeover in progress at " + date() + " on " + host);
        try {
            Files.createDirectories(stateFile.getParent());
            Files.writeString(stateFile, token + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            return AgentResult.failed("cannot record MailTo as started in " + stateFile + ": " + e.getMessage(),
                    AgentResult.NO_EXIT_CODE);
        }
        return AgentResult.ok(sent);
    }

    @Override
    public AgentResult stop() {
        String sent = send("Migrating resource away at " + date() + " from " + host);
        try {
            Files.deleteIfExists(stateFile);
        } catch (IOException e) {
            return AgentResult.failed("cannot record MailTo as stopped in " + stateFile + ": " + e.getMessage(),
                    AgentResult.NO_EXIT_CODE);
        }
        return AgentResult.ok(sent);
    }

    @Override
    public AgentResult status() {
        return Files.exists(stateFile) ? AgentResult.running("running") : AgentResult.stopped("stopped");
    }

    private String date() {
        return DATE.format(ZonedDateTime.ofInstant(wall.instant(), ZoneId.systemDefault()));
    }

    /**
     * Mails {@code SUBJECT what}; a failure is logged (WARN) and returned as the result's message.
     *
     * @return what happened, one line
     */
    private String send(String what) {
        String subject = spec.subject() + " " + what;
        String message = "To: " + String.join(", ", spec.recipients()) + "\n"
                + "Subject: " + subject + "\n"
                + "Auto-Submitted: auto-generated\n"
                + "\n"
                + subject + "\n"
                + "\n"
                + "Sent by jheartbeat for the haresources resource " + token + ".\n";
        Path file = null;
        try {
            if (!Files.isExecutable(sendmail)) {
                throw new IOException("no " + sendmail + ": install a mail transfer agent (exim4-daemon-light, or any"
                        + " that provides sendmail)");
            }
            Files.createDirectories(stateFile.getParent());
            file = Files.createTempFile(stateFile.getParent(), "mail-", ".txt");
            Files.writeString(file, message, StandardCharsets.UTF_8);
            // the message on sendmail's stdin; paths are arguments of the shell, never parsed by it
            ProcessResult r = runner.run(new ProcessSpec(List.of("/bin/sh", "-c", "exec \"$0\" -t -oi < \"$1\"",
                    sendmail.toString(), file.toString()), Map.of(), SEND_TIMEOUT));
            if (r.timedOut()) {
                throw new IOException(sendmail + " did not finish within " + SEND_TIMEOUT.toSeconds() + " s (killed)");
            }
            if (r.exitCode() != 0) {
                String out = (r.stdout() + " " + r.stderr()).strip();
                throw new IOException(sendmail + " exited with status " + r.exitCode() + (out.isEmpty() ? "" : ": "
                        + out));
            }
            return "mailed " + String.join(", ", spec.recipients()) + ": " + subject;
        } catch (IOException e) {
            LOG.warn("{}: mail to {} not sent ({}): {}", token, String.join(", ", spec.recipients()), subject,
                    e.getMessage());
            return "mail not sent: " + e.getMessage();
        } finally {
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a small file left in the run directory
                }
            }
        }
    }

    /** A file name for the token: its safe characters and a hash, so two tokens never share a state file. */
    static String fileName(String token) {
        String safe = token.replaceAll("[^A-Za-z0-9._-]", "_");
        return (safe.length() > 80 ? safe.substring(0, 80) : safe) + "-" + Integer.toHexString(token.hashCode());
    }
}
