package org.jheartbeat.cli.alert;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jheartbeat.cli.config.AlertSettings;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventSink;
import org.jheartbeat.core.time.MonotonicClock;
import org.jheartbeat.director.alert.SmtpClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code alerts:} rules of jheartbeat.yaml as an {@link EventSink}. {@link #record} runs on the loop
 * thread and only decides and queues: the rule's kind filter, its rate limit ({@link RateWindow}, on the
 * monotonic clock), then a bounded queue of {@value #QUEUE} per rule; an event that finds the queue full is
 * dropped and counted, and like a rate-limited one it is summarised in the rule's next alert
 * ({@code HB_ALERT_HELD}, the mail's last lines). Each rule has its own thread, so a script that hangs or an
 * SMTP server that never answers only delays that rule's next alerts: a script is killed past its
 * {@code timeout:} ({@link AlertScripts}), an SMTP exchange is bounded by it (connect by at most 10 s),
 * as ldirectord's mailer. Failures are logged and counted ({@link #stats}); nothing reaches the loop.
 */
public final class AlertDispatcher implements EventSink, AutoCloseable {
    /** The longest {@link #close} waits for alerts being delivered, in ms, all rules together. */
    static final long CLOSE_WAIT_MS = 5_000;
    private static final Logger LOG = LoggerFactory.getLogger("org.jheartbeat.alert");
    /** The most events waiting per rule. */
    public static final int QUEUE = 64;
    /** The longest SMTP connect, whatever the rule's timeout. */
    static final Duration MAX_CONNECT = Duration.ofSeconds(10);

    /**
     * Figures since start, over all rules.
     *
     * @param sent     alerts delivered (script exit 0, mail accepted)
     * @param failed   scripts that exited non-zero or could not start, mails refused or not delivered in time
     * @param timedOut scripts killed past their timeout (also counted in failed)
     * @param dropped  events not queued because the rule's queue was full
     * @param limited  events held back by a rule's rate limit
     */
    public record Stats(long sent, long failed, long timedOut, long dropped, long limited) {
    }

    /** Sends one mail (the production one speaks SMTP; tests may record). */
    @FunctionalInterface
    public interface MailSender {
        /**
         * @param mail    the rule's target
         * @param from    the sender
         * @param message headers, blank line, body
         * @param timeout the bound of the whole exchange
         * @throws IOException if the server cannot be reached, refuses, or the bound passes
         */
        void send(AlertSettings.Mail mail, String from, String message, Duration timeout) throws IOException;
    }

    private final String node;
    private final MonotonicClock clock;
    private final Clock wall;
    private final AlertScripts scripts;
    private final MailSender mailer;
    private final List<Worker> workers = new ArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong limited = new AtomicLong();

    /**
     * Starts one thread per rule.
     *
     * @param settings the rules
     * @param node     this node's name (the default sender {@code root@NODE}, EHLO)
     * @param clock    the rate limit's and the SMTP deadline's clock
     * @param wall     the mails' {@code Date:}
     * @param runner   runs the scripts
     * @param mailer   sends the mails ({@link #smtp})
     */
    public AlertDispatcher(AlertSettings settings, String node, MonotonicClock clock, Clock wall,
                           OsProcessRunner runner, MailSender mailer) {
        this.node = Objects.requireNonNull(node, "node");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.wall = Objects.requireNonNull(wall, "wall");
        this.scripts = new AlertScripts(Objects.requireNonNull(runner, "runner"), "setsid");
        this.mailer = Objects.requireNonNull(mailer, "mailer");
        for (AlertSettings.Rule r : settings.rules()) {
            workers.add(new Worker(r));
        }
        workers.forEach(w -> w.thread.start());
    }

    /** The production dispatcher: scripts through {@link OsProcessRunner}, mails through {@link #smtp}. */
    public static AlertDispatcher start(AlertSettings settings, String node, MonotonicClock clock, Clock wall) {
        return new AlertDispatcher(settings, node, clock, wall, new OsProcessRunner(), smtp(node, clock));
    }

    /**
     * Mail through the director's {@link SmtpClient}: EHLO {@code node}, connect bounded by
     * min(timeout, {@link #MAX_CONNECT}), the whole exchange by the timeout.
     */
    public static MailSender smtp(String node, MonotonicClock clock) {
        return (mail, from, message, timeout) -> new SmtpClient(mail.host(), mail.port(),
                timeout.compareTo(MAX_CONNECT) < 0 ? timeout : MAX_CONNECT, timeout, node, clock)
                .send(from, mail.to(), message);
    }

    @Override
    public void record(ClusterEvent event) {
        for (Worker w : workers) {
            if (w.rule.wants(event.kind())) {
                w.offer(event);
            }
        }
    }

    /** The figures so far. */
    public Stats stats() {
        return new Stats(sent.get(), failed.get(), timedOut.get(), dropped.get(), limited.get());
    }

    /**
     * Stops the threads: a script running is killed, a mail being sent is abandoned; queued events are dropped. Waits
     * {@value #CLOSE_WAIT_MS} ms at most in all (not per rule), saying first which alerts it waits for, so a hung
     * script or mail server adds a known, logged delay to a node's shutdown and never more.
     */
    @Override
    public void close() {
        workers.forEach(w -> w.thread.interrupt());
        List<String> busy = workers.stream().filter(w -> w.busy && w.thread.isAlive())
                .map(w -> w.rule.line() + " (" + w.rule.describe() + ")").toList();
        if (!busy.isEmpty()) {
            LOG.info("waiting at most {} ms for {} alert(s) still being delivered: alert {}", CLOSE_WAIT_MS,
                    busy.size(), String.join(", alert ", busy));
        }
        long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MS);
        for (Worker w : workers) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - clock.nanoTime());
            if (left <= 0) {
                break;
            }
            try {
                w.thread.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        long abandoned = workers.stream().filter(w -> w.thread.isAlive()).count();
        if (abandoned > 0) {
            LOG.warn("{} alert(s) still being delivered after {} ms are abandoned", abandoned, CLOSE_WAIT_MS);
        }
    }

    /** An event on its way out, with what was held back before it. */
    private record Item(ClusterEvent event, RateWindow.Held held) {
    }

    /** One rule: its filter's verdicts queued, and the thread that delivers them. */
    private final class Worker implements Runnable {
        final AlertSettings.Rule rule;
        final BlockingQueue<Item> queue = new ArrayBlockingQueue<>(QUEUE);
        final RateWindow window;
        final Thread thread;
        /** Whether an alert is being delivered now (a script runs or a mail is being sent). */
        volatile boolean busy;

        Worker(AlertSettings.Rule rule) {
            this.rule = rule;
            this.window = rule.rateLimit().map(l -> new RateWindow(l.count(), l.per().toNanos()))
                    .orElseGet(RateWindow::unlimited);
            this.thread = new Thread(this, "hb-alert-" + rule.line());
            thread.setDaemon(true);
        }

        /** On the loop thread: no I/O, no wait. Only this method adds, so a free slot stays free. */
        synchronized void offer(ClusterEvent e) {
            if (queue.remainingCapacity() == 0) {
                window.hold(e.kind());
                dropped.incrementAndGet();
                return;
            }
            RateWindow.Held h = window.admit(e.kind(), clock.nanoTime());
            if (h == null) {
                limited.incrementAndGet();
                return;
            }
            queue.add(new Item(e, h));
        }

        @Override
        public void run() {
            while (!Thread.currentThread().isInterrupted()) {
                Item item;
                try {
                    item = queue.take();
                } catch (InterruptedException e) {
                    return;
                }
                if (item.held.total() > 0) {
                    LOG.warn("alert {} ({}): {} earlier event(s) were not sent (rate_limit {}, or {} already"
                            + " waiting): {}; this alert says so", rule.line(), rule.describe(), item.held.total(),
                            rule.rateLimit().map(Object::toString).orElse("none"), QUEUE, item.held.summary());
                }
                busy = true;
                try {
                    deliver(item);
                } catch (InterruptedException e) {
                    return;
                } finally {
                    busy = false;
                }
            }
        }

        private void deliver(Item item) throws InterruptedException {
            ClusterEvent e = item.event;
            try {
                if (rule.target() instanceof AlertSettings.Script s) {
                    AlertScripts.Outcome o = scripts.run(s.program(),
                            AlertText.environment(e, s.recipient(), item.held), rule.timeout());
                    switch (o.ending()) {
                        case OK -> sent.incrementAndGet();
                        case TIMED_OUT -> {
                            timedOut.incrementAndGet();
                            failed.incrementAndGet();
                            LOG.error("alert {} (script {}) for {} #{} timed out ({} ms): {}", rule.line(), s.program(),
                                    e.kind().wire(), e.seq(), rule.timeout().toMillis(), o.detail());
                        }
                        default -> {
                            failed.incrementAndGet();
                            LOG.warn("alert {} (script {}) for {} #{} failed: {}", rule.line(), s.program(),
                                    e.kind().wire(), e.seq(), o.detail());
                        }
                    }
                } else {
                    AlertSettings.Mail m = (AlertSettings.Mail) rule.target();
                    String from = m.from().orElse("root@" + node);
                    mailer.send(m, from, AlertText.mail(e, item.held, from, m.to(), wall.instant()), rule.timeout());
                    sent.incrementAndGet();
                }
            } catch (IOException | RuntimeException ex) {
                failed.incrementAndGet();
                LOG.warn("alert {} ({}) for {} #{} not delivered: {}", rule.line(), rule.describe(), e.kind().wire(),
                        e.seq(), ex.getMessage());
            }
        }
    }
}
