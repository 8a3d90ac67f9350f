package org.jheartbeat.cli.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.filter.ThresholdFilter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.time.MonotonicClock;
import org.slf4j.LoggerFactory;

/**
 * Configures logging for {@code hb daemon} from ha.cf's {@code logfile} (info and above) and
 * {@code debugfile} (everything), plus standard error, in Heartbeat's line format:
 * {@code 2026/11/29_19:20:01.123 node1 hb[1234]: WARN: node node2: is dead}; and with ha.cf
 * {@code logfacility FACILITY} (not {@code none}), info and above to the local syslog socket
 * {@value #SYSLOG_SOCKET} with the ident {@value #SYSLOG_IDENT} ({@link SyslogEncoder},
 * {@link SyslogStream}), as a Debian daemon: {@code journalctl -t jheartbeat}, or rsyslog's files.
 *
 * <p>The ident is {@code jheartbeat}, not Heartbeat's {@code heartbeat}: the two can run side by side
 * (interop tests, a migration) and an admin must be able to tell their records apart; it is also the
 * package and service name.
 *
 * <p>Logging never blocks the caller (a slow disk must not delay a heartbeat): each output sits behind a
 * {@link NonBlockingAppender}
 * of {@link #QUEUE_LINES} lines that drops and counts when full; a growing count is logged as a
 * warning at most once per {@link #DROP_WARNING_INTERVAL_S} s; a log file that cannot be written is
 * reported once (and once more when it can be written again), never fatal; so is a syslog socket
 * that is missing or does not take records (retried every {@value SyslogStream#RETRY_INTERVAL_S} s).
 */
public final class LogSetup {
    /** Queue length of each output, in lines. */
    public static final int QUEUE_LINES = 1024;
    /** The least time between two "log lines dropped" warnings, in s. */
    public static final long DROP_WARNING_INTERVAL_S = 60;
    /** The tag of the daemon's syslog records ({@code journalctl -t jheartbeat}). */
    public static final String SYSLOG_IDENT = "jheartbeat";
    /** The local syslog socket, as glibc's {@code _PATH_LOG}. */
    public static final String SYSLOG_SOCKET = "/dev/log";

    /** Opens the syslog socket ({@link UnixDatagramSender#open} in the daemon, a fake in tests). */
    @FunctionalInterface
    interface SyslogOpener {
        SyslogStream.DatagramSender open(Path socket) throws IOException;
    }

    /**
     * Marks a line the daemon printed on standard error before its log outputs existed (the configuration's
     * warnings at start): the log file, debug file and syslog get it, standard error not a second time.
     */
    public static final org.slf4j.Marker ALREADY_ON_STDERR = org.slf4j.MarkerFactory.getMarker("ALREADY_ON_STDERR");

    private LogSetup() {
    }

    /**
     * Replaces the logback configuration.
     *
     * @param settings logfile / debugfile from ha.cf
     * @param nodeName shown in every line, like a syslog host name
     * @param debug    whether standard error gets debug lines too
     * @return the running configuration; close it last, at exit, to write out what is queued
     */
    public static DaemonLog configureDaemon(LogSettings settings, String nodeName, boolean debug) {
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setTarget("System.err");
        return configure((LoggerContext) LoggerFactory.getILoggerFactory(), settings, nodeName, debug, console,
                MonotonicClock.system(), UnixDatagramSender::open);
    }

    /** {@link #configureDaemon} on a given context, with {@code stderr} as the standard-error output. */
    static DaemonLog configure(LoggerContext ctx, LogSettings settings, String nodeName, boolean debug,
                               OutputStreamAppender<ILoggingEvent> stderr, MonotonicClock clock) {
        return configure(ctx, settings, nodeName, debug, stderr, clock, UnixDatagramSender::open);
    }

    /** {@link #configureDaemon} on a given context, with {@code stderr} and the syslog socket given. */
    static DaemonLog configure(LoggerContext ctx, LogSettings settings, String nodeName, boolean debug,
                               OutputStreamAppender<ILoggingEvent> stderr, MonotonicClock clock,
                               SyslogOpener syslog) {
        ctx.reset();
        // %d{yyyy/MM/dd_HH:mm:ss.SSS} NODE hb[PID]: %hblevel: %msg%n, without PatternLayout's start-up cost
        java.util.function.Supplier<Encoder<ILoggingEvent>> pattern = () -> LineLayout.daemon(nodeName,
                ProcessHandle.current().pid(), ZoneId.systemDefault()).encoder(ctx);
        Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.DEBUG);
        ctx.getLogger("io.netty").setLevel(Level.INFO);
        org.slf4j.Logger heartbeat = ctx.getLogger("heartbeat");
        LogFileStream.Reporter reporter = new LogFileStream.Reporter() {
            @Override
            public void writeFailed(Path file, IOException error) {
                heartbeat.error("cannot write log file {}: {}; its lines are lost until it can be written again",
                        file, error.getMessage() != null ? error.getMessage() : error.toString());
            }

            @Override
            public void writable(Path file, long linesLost) {
                heartbeat.info("log file {} is writable again ({} lines lost)", file, linesLost);
            }
        };
        LongAdder dropped = new LongAdder();
        List<NonBlockingAppender> outputs = new ArrayList<>();
        NonBlockingAppender console = add(ctx, root, stderr, "stderr", pattern, debug ? Level.DEBUG : Level.INFO,
                dropped, clock);
        ch.qos.logback.core.filter.Filter<ILoggingEvent> printed = new ch.qos.logback.core.filter.Filter<>() {
            @Override
            public ch.qos.logback.core.spi.FilterReply decide(ILoggingEvent e) {
                return e.getMarkerList() != null && e.getMarkerList().contains(ALREADY_ON_STDERR)
                        ? ch.qos.logback.core.spi.FilterReply.DENY : ch.qos.logback.core.spi.FilterReply.NEUTRAL;
            }
        };
        printed.start();
        console.addFilter(printed);
        outputs.add(console);
        settings.logfile().ifPresent(p -> outputs.add(add(ctx, root, logFile(p, reporter), "logfile", pattern,
                Level.INFO, dropped, clock)));
        settings.debugfile().ifPresent(p -> outputs.add(add(ctx, root, logFile(p, reporter), "debugfile", pattern,
                Level.DEBUG, dropped, clock)));
        Optional<SyslogFacility> facility = settings.logfacility().flatMap(SyslogFacility::fromHaCf);
        String syslogProblem = null;
        java.util.function.LongSupplier syslogLost = () -> 0;
        if (facility.isPresent()) {
            try {
                OutputStreamAppender<ILoggingEvent> out = new OutputStreamAppender<>();
                SyslogStream stream = new SyslogStream(syslog.open(Path.of(SYSLOG_SOCKET)), syslogReporter(heartbeat),
                        clock);
                syslogLost = stream::recordsLost;
                out.setOutputStream(stream);
                SyslogEncoder encoder = new SyslogEncoder(facility.get(), SYSLOG_IDENT, ProcessHandle.current().pid(),
                        ZoneId.systemDefault());
                outputs.add(add(ctx, root, out, "syslog", encoder, Level.INFO, dropped, clock));
            } catch (IOException e) {
                syslogProblem = e.getMessage();
            }
        }
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "hb-log-watch");
            t.setDaemon(true);
            return t;
        });
        DropReportPolicy policy = new DropReportPolicy(TimeUnit.SECONDS.toNanos(DROP_WARNING_INTERVAL_S));
        watcher.scheduleWithFixedDelay(() -> policy.due(dropped.sum(), clock.nanoTime()).ifPresent(n ->
                heartbeat.warn("{} log lines dropped (log output too slow)", n)), 1, 1, TimeUnit.SECONDS);
        if (syslogProblem != null) {
            heartbeat.warn("logfacility {}: cannot log to syslog ({}); logging to files and stderr only",
                    facility.get().haCfName(), syslogProblem);
        }
        return new DaemonLog(outputs, dropped, watcher, clock, syslogLost);
    }

    /**
     * A syslog output for {@code logger} outside the cluster daemon: {@code hb lvs daemon} with ldirectord.cf's
     * {@code logfile = FACILITY} (as ldirectord logs through syslog with that facility). Records go to
     * {@code socket} at {@code facility} as {@code ident[pid]}, behind the same bounded queue as the daemon's
     * outputs: a slow or missing syslog drops and counts lines ({@code dropped}), never blocks the logger.
     *
     * @throws IOException if the sending socket cannot be created (Netty's native transport missing)
     */
    public static NonBlockingAppender syslogOutput(LoggerContext ctx, Logger logger, SyslogFacility facility,
                                                   String ident, Path socket, LongAdder dropped) throws IOException {
        OutputStreamAppender<ILoggingEvent> out = new OutputStreamAppender<>();
        out.setOutputStream(new SyslogStream(UnixDatagramSender.open(socket), syslogReporter(logger),
                MonotonicClock.system()));
        SyslogEncoder encoder = new SyslogEncoder(facility, ident, ProcessHandle.current().pid(), ZoneId.systemDefault());
        return add(ctx, logger, out, "syslog", encoder, Level.DEBUG, dropped, MonotonicClock.system());
    }

    /**
     * A log file output for {@code logger} outside the cluster daemon ({@code hb lvs daemon}'s {@code logfile}
     * path): appended with {@code encoder}, reopened when rotated away, behind the bounded queue (a slow or
     * failing disk drops and counts lines, never blocks the logger).
     */
    public static NonBlockingAppender fileOutput(LoggerContext ctx, Logger logger, Path file,
                                                 Encoder<ILoggingEvent> encoder, LongAdder dropped) {
        org.slf4j.Logger reportTo = logger;
        LogFileStream.Reporter reporter = new LogFileStream.Reporter() {
            @Override
            public void writeFailed(Path f, IOException error) {
                reportTo.error("cannot write log file {}: {}; its lines are lost until it can be written again",
                        f, error.getMessage() != null ? error.getMessage() : error.toString());
            }

            @Override
            public void writable(Path f, long linesLost) {
                reportTo.info("log file {} is writable again ({} lines lost)", f, linesLost);
            }
        };
        return add(ctx, logger, logFile(file, reporter), "logfile", encoder, Level.DEBUG, dropped,
                MonotonicClock.system());
    }

    private static SyslogStream.Reporter syslogReporter(org.slf4j.Logger heartbeat) {
        return new SyslogStream.Reporter() {
            @Override
            public void unavailable(String socket, String reason) {
                heartbeat.warn("syslog socket {} does not take records ({}); they are dropped and counted until it"
                        + " does (retrying every {} s); the log files and stderr still get every line", socket, reason,
                        SyslogStream.RETRY_INTERVAL_S);
            }

            @Override
            public void available(String socket, long recordsLost) {
                heartbeat.info("syslog socket {} takes records again ({} records lost)", socket, recordsLost);
            }
        };
    }

    private static OutputStreamAppender<ILoggingEvent> logFile(Path file, LogFileStream.Reporter reporter) {
        OutputStreamAppender<ILoggingEvent> a = new OutputStreamAppender<>();
        a.setOutputStream(new LogFileStream(file, reporter));
        return a;
    }

    private static NonBlockingAppender add(LoggerContext ctx, Logger root, OutputStreamAppender<ILoggingEvent> a,
                                           String name, java.util.function.Supplier<Encoder<ILoggingEvent>> pattern,
                                           Level threshold, LongAdder dropped, MonotonicClock clock) {
        return add(ctx, root, a, name, pattern.get(), threshold, dropped, clock);
    }

    private static NonBlockingAppender add(LoggerContext ctx, Logger root, OutputStreamAppender<ILoggingEvent> a,
                                           String name, Encoder<ILoggingEvent> enc, Level threshold, LongAdder dropped,
                                           MonotonicClock clock) {
        enc.setContext(ctx);
        enc.start();
        a.setContext(ctx);
        a.setName(name);
        a.setEncoder(enc);
        a.start();
        ThresholdFilter filter = new ThresholdFilter();
        filter.setLevel(threshold.levelStr);
        filter.start();
        NonBlockingAppender queue = new NonBlockingAppender(a, QUEUE_LINES, dropped, clock);
        queue.setContext(ctx);
        queue.setName(name);
        queue.addFilter(filter);
        queue.start();
        root.addAppender(queue);
        return queue;
    }
}
