package org.jheartbeat.cli.watchdog;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.cli.logging.SyslogStream;
import org.jheartbeat.cli.logging.UnixDatagramSender;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * systemd's service notifications (sd_notify(3), without libsystemd): each message is one datagram of
 * {@code KEY=VALUE} lines to the unix socket {@code $NOTIFY_SOCKET} (a path, or an abstract address
 * written {@code @...}), sent with a non-blocking {@code sendto(2)} ({@link UnixDatagramSender}), so a
 * send never waits, also on the loop thread. {@code READY=1} ends a {@code Type=notify} start;
 * {@code WATCHDOG=1} resets the unit's {@code WatchdogSec=} timer, whose length systemd passes in
 * {@code $WATCHDOG_USEC} (for the process {@code $WATCHDOG_PID}, when set); {@code STOPPING=1} says an
 * orderly stop has begun. Not started by systemd (no {@code NOTIFY_SOCKET}): there is no notifier and
 * nothing is sent. A failed send is logged (the first of a run of failures, and the recovery), never
 * thrown; after {@link #close} nothing is sent. Thread-safe.
 */
public final class SystemdNotifier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger("heartbeat");

    private final SyslogStream.DatagramSender sender;
    private final Optional<Duration> watchdog;
    private boolean failing;
    private boolean closed;

    /**
     * @param sender   sends one datagram to the notification socket ({@link UnixDatagramSender})
     * @param watchdog the unit's watchdog timeout, if systemd watches this process
     */
    SystemdNotifier(SyslogStream.DatagramSender sender, Optional<Duration> watchdog) {
        this.sender = sender;
        this.watchdog = watchdog;
    }

    /**
     * The notifier systemd asked for through the environment it started this process with.
     *
     * @param env the process environment ({@code System.getenv()})
     * @param pid this process's id, compared with {@code WATCHDOG_PID}
     * @return empty without {@code NOTIFY_SOCKET} (not started by systemd, or not {@code Type=notify})
     * @throws IOException when {@code NOTIFY_SOCKET} is neither an absolute path nor {@code @...}, or no
     *                     unix datagram socket can be made here; the message says which
     */
    public static Optional<SystemdNotifier> fromEnvironment(Map<String, String> env, long pid) throws IOException {
        String socket = env.get("NOTIFY_SOCKET");
        if (socket == null || socket.isEmpty()) {
            return Optional.empty();
        }
        if (!socket.startsWith("/") && !(socket.startsWith("@") && socket.length() > 1)) {
            throw new IOException("NOTIFY_SOCKET=" + socket + " is neither an absolute path nor an abstract"
                    + " address (@name): cannot tell systemd anything");
        }
        return Optional.of(new SystemdNotifier(UnixDatagramSender.openAddress(socket), watchdogInterval(env, pid)));
    }

    /**
     * The unit's watchdog timeout as systemd passes it: {@code WATCHDOG_USEC} (µs, &gt; 0), only when
     * {@code WATCHDOG_PID} is unset or names this process (sd_watchdog_enabled(3)).
     */
    static Optional<Duration> watchdogInterval(Map<String, String> env, long pid) {
        String usec = env.get("WATCHDOG_USEC");
        String forPid = env.get("WATCHDOG_PID");
        if (usec == null || !usec.matches("[0-9]{1,18}") || forPid != null && !forPid.equals(Long.toString(pid))) {
            return Optional.empty();
        }
        long micros = Long.parseLong(usec);
        return micros > 0 ? Optional.of(Duration.ofNanos(micros * 1000)) : Optional.empty();
    }

    /** The unit's {@code WatchdogSec=}, when systemd watches this process; {@code WATCHDOG=1} must come more often. */
    public Optional<Duration> watchdog() {
        return watchdog;
    }

    /** {@code READY=1}: the start is over (a {@code Type=notify} unit's {@code systemctl start} returns). */
    public void ready(String status) {
        send("READY=1\nSTATUS=" + status);
    }

    /** {@code WATCHDOG=1}: the unit's watchdog timer starts again. */
    public void watchdogPet() {
        send("WATCHDOG=1");
    }

    /** {@code STOPPING=1}: an orderly stop has begun. */
    public void stopping(String status) {
        send("STOPPING=1\nSTATUS=" + status);
    }

    private synchronized void send(String message) {
        if (closed) {
            return;
        }
        String first = message.substring(0, message.indexOf('\n') < 0 ? message.length() : message.indexOf('\n'));
        try {
            sender.send(message.getBytes(StandardCharsets.UTF_8));
            if (failing) {
                failing = false;
                LOG.info("systemd notification socket {} reachable again ({} sent)", sender.describe(), first);
            }
        } catch (IOException e) {
            if (!failing) {
                failing = true;
                LOG.warn("cannot notify systemd through {} ({}): {}; the unit may time out or be restarted"
                        + " (logged once until a notification goes through)", sender.describe(), first, e.getMessage());
            }
        }
    }

    /** Closes the socket; later notifications are dropped. Idempotent. */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            sender.close();
        }
    }
}
