package org.jheartbeat.director.alert;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the kernel's alerts off the decision thread: one mail thread with a bounded queue of
 * {@value #QUEUE} alerts. {@link #send} never blocks; an alert that finds the queue full is
 * dropped. Each alert goes by SMTP to its {@code smtp} server ({@link SmtpClient}: connect bound
 * 10 s, whole exchange 60 s) or, without {@code smtp}, through {@code sendmail -t -oi}
 * ({@link SendmailPipe}, 60 s). The envelope sender is {@code USER@HOST} as in ldirectord 4.x
 * (the JVM's user name and the director's host name). A failure is logged with the alert's
 * subject and counted; it never reaches the director.
 */
public final class AlertMailer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("org.jheartbeat.director.alert");
    /** The most alerts waiting to be sent. */
    public static final int QUEUE = 100;

    /** Figures: alerts sent, failed (logged) and dropped because the queue was full or closed. */
    public record Stats(long sent, long failed, long dropped) {
    }

    private final Path sendmail;
    private final String hostName;
    private final String userName;
    private final Clock wallClock;
    private final Duration timeout;
    private final ThreadPoolExecutor thread;
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();

    /**
     * @param sendmail  the sendmail program for alerts without {@code smtp}
     * @param hostName  the director's host name (body, EHLO, envelope sender)
     * @param userName  the envelope sender's user part
     * @param wallClock the Date header's clock
     * @param timeout   the bound of one send (SMTP exchange or sendmail run)
     */
    public AlertMailer(Path sendmail, String hostName, String userName, Clock wallClock, Duration timeout) {
        this.sendmail = Objects.requireNonNull(sendmail, "sendmail");
        this.hostName = Objects.requireNonNull(hostName, "hostName");
        this.userName = Objects.requireNonNull(userName, "userName");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.thread = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE), r -> {
            Thread t = new Thread(r, "lvs-mail");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * The production mailer: sendmail from {@link SendmailPipe#configuredProgram()}, the kernel's
     * host name ({@code /proc/sys/kernel/hostname}, as Perl's Sys::Hostname, else the resolver's),
     * the JVM's {@code user.name}, the system clock, 60 s per send.
     */
    public static AlertMailer standard() {
        return new AlertMailer(SendmailPipe.configuredProgram(), hostName(), System.getProperty("user.name", "root"),
                Clock.systemDefaultZone(), Duration.ofSeconds(60));
    }

    static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException e) {
            // not Linux: ask the resolver
        }
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** Queues one alert; returns at once (a full queue drops it, logged and counted). */
    public void send(Alert mail) {
        try {
            thread.execute(() -> deliver(mail));
        } catch (RejectedExecutionException e) {
            dropped.incrementAndGet();
            LOG.error("emailalert not sent ({} alerts already waiting, or stopping): {}", QUEUE, mail.subject());
        }
    }

    private void deliver(Alert mail) {
        String envelope = userName + "@" + hostName;
        String text = AlertMessage.format(mail, hostName, envelope, ZonedDateTime.now(wallClock));
        try {
            if (mail.smtp().isPresent()) {
                SmtpClient.Server server = SmtpClient.parse(mail.smtp().get());
                new SmtpClient(server.host(), server.port(), min(timeout, Duration.ofSeconds(10)),
                        timeout, hostName).send(envelope, mail.to(), text);
            } else {
                new SendmailPipe(sendmail, timeout).send(text);
            }
            sent.incrementAndGet();
        } catch (IOException | RuntimeException e) {
            failed.incrementAndGet();
            LOG.error("emailalert to {} failed ({}): {}", String.join(", ", mail.to()),
                    mail.smtp().map(s -> "smtp " + s).orElse(sendmail.toString()),
                    e instanceof java.net.UnknownHostException ? "unknown host " + e.getMessage() : e.getMessage());
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** The figures so far. */
    public Stats stats() {
        return new Stats(sent.get(), failed.get(), dropped.get());
    }

    /**
     * Sends what is queued for at most 5 s more, then stops (what is left is dropped).
     */
    @Override
    public void close() throws InterruptedException {
        thread.shutdown();
        if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
            dropped.addAndGet(thread.shutdownNow().size());
        }
    }
}
