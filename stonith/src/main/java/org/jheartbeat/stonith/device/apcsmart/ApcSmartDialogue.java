package org.jheartbeat.stonith.device.apcsmart;

import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.jheartbeat.stonith.StonithResult;

/**
 * Pure client side of one APC Smart-UPS operation, byte for byte as cluster-glue's {@code apcsmart} plugin
 * (cluster-glue {@code apcsmart.c}; facts stonith-sync §1.3–1.5). Feed it {@link #received} bytes and call
 * {@link #bytesDue} at {@link #nextDeadlineNanos()}; write what it returns; stop when {@link #result()} is
 * present. It never reads a clock, sleeps or does I/O.
 *
 * <p>Sequences (the plugin's, see facts §1.4): <b>init</b> {@code Y}→{@code SM}; with delay stepping also:
 * find the smallest {@code p} and {@code r} by cycling each with {@code -} (each step {@code - Y p}) until the
 * starting value returns, then step each to its smallest, remembering the old values; after the operation
 * ({@link #result()} is already decided) the old values are stepped back. <b>status</b>: init, {@code Q}→any
 * line. <b>off/on</b>: init, {@code Y}, {@code Z} (or {@code ^N}), 2 s, again, 1 s, {@code Y ~}: bit 0x40 set
 * ⇒ off (with {@link Confirm#POLL}: {@code Y ~} at once and every 200 ms until confirmed, at most 5 s). <b>reset</b>: init, {@code Y}, {@code S}; unless {@code *}/{@code OK}, {@code @000}; unless
 * {@code *}/{@code OK}: on {@code NA} with Register 1 bit 0x40 set run the power-on sequence, else RESETFAIL;
 * once accepted poll {@code Y 8} every 1 s, at most smallest-grace + 10 times, for bit 0x08.
 *
 * <p>Results as the plugin: init failures {@code OOPS}; reply timeout passed through as {@code TIMEOUT}
 * (status); {@code Y} not answered {@code SM} in on/off {@code ACCESS}; not confirmed {@code RESETFAIL}.
 * Deviations, all bounded: the whole operation, restore included, ends by {@code maxDurationNanos} (result
 * {@code TIMEOUT} unless already decided), and a delay cycle longer than {@value #MAX_CYCLE} steps is
 * {@code OOPS} (the plugin would loop forever, facts §1.7.4).
 */
public final class ApcSmartDialogue {
    /** What the dialogue does. */
    public enum Operation { STATUS, RESET, POWER_OFF, POWER_ON }

    /** How much of the plugin's EEPROM-rewriting init an operation performs (facts §1.7.1). */
    public enum InitMode {
        /** Every operation steps {@code p}/{@code r} to their minimum and back, exactly as {@code stonith -t apcsmart}. */
        CLUSTER_GLUE,
        /** Only {@link Operation#RESET} steps the delays (it needs the shortest grace); the others send {@code Y} only. */
        MINIMAL
    }

    /** How an off or on is confirmed after the second {@code Z} / {@code ^N}. */
    public enum Confirm {
        /** As the plugin: one Register 1 read ({@code Y ~}) 1 s after the second byte. */
        PLUGIN,
        /**
         * Register 1 read at once after the second byte, then every {@value #CONFIRM_POLL_MS} ms until the bit
         * says the outlet is as asked, for at most {@value #CONFIRM_WINDOW_MS} ms; a read that fails or times
         * out only means "not yet" inside that window. Faster on a UPS that switches at once (the lab's
         * simulator, facts §1.8), more tolerant of one that takes longer than the plugin's 1 s.
         */
        POLL
    }

    /** {@link Confirm#POLL}: pause between Register 1 reads, ms. */
    static final long CONFIRM_POLL_MS = 200;
    /** {@link Confirm#POLL}: how long after the second byte the outlet may take to switch, ms. */
    static final long CONFIRM_WINDOW_MS = 5000;

    /** Longest delay cycle followed, steps. */
    static final int MAX_CYCLE = 32;
    private static final long MS = 1_000_000L;

    private final Operation operation;
    private final Confirm confirm;
    private final boolean stepDelays;
    private final long maxDurationNanos;
    private final ApcSmartExchange link = new ApcSmartExchange();
    private long deadline;
    private boolean started;
    private long startNanos;
    private boolean portInitialised;
    private String shutdownDelay = "0";
    private String oldShutdownDelay;
    private String oldWakeupDelay;
    private StonithResult decided;
    private StonithResult result;

    /**
     * @param maxDurationNanos bound on the whole operation, ns (restore of the delays included)
     */
    public ApcSmartDialogue(Operation operation, InitMode mode, long maxDurationNanos) {
        this(operation, mode, maxDurationNanos, Confirm.PLUGIN);
    }

    /**
     * @param maxDurationNanos bound on the whole operation, ns (restore of the delays included)
     * @param confirm          how an off or on is confirmed
     */
    public ApcSmartDialogue(Operation operation, InitMode mode, long maxDurationNanos, Confirm confirm) {
        this.operation = operation;
        this.confirm = confirm;
        this.stepDelays = mode == InitMode.CLUSTER_GLUE || operation == Operation.RESET;
        this.maxDurationNanos = maxDurationNanos;
    }

    /** Starts the operation at {@code nowNanos}; the first byte is then due. */
    public void start(long nowNanos) {
        if (started) {
            throw new IllegalStateException("dialogue already started");
        }
        started = true;
        startNanos = nowNanos;
        link.at(nowNanos);
        deadline = nowNanos + maxDurationNanos;
        init(rc -> {
            if (rc != StonithResult.OK) {
                decide(rc);
                return;
            }
            switch (operation) {
                case STATUS -> link.exchange("Q", r -> decide(r.code()));
                case POWER_OFF, POWER_ON -> onOff(operation, this::decide);
                case RESET -> init(rc2 -> ifOk(rc2, this::decide, this::genericReset)); // the plugin's second APC_init
            }
        });
    }

    /** Bytes read from the line at {@code nowNanos}. */
    public void received(byte[] data, int len, long nowNanos) {
        link.at(nowNanos);
        link.received(data, len);
    }

    /** The write of the last byte failed: the operation ends with {@code ACCESS} (as {@code APC_send_cmd}). */
    public void writeFailed(long nowNanos) {
        link.at(nowNanos);
        end(decided != null ? decided : StonithResult.ACCESS);
    }

    /**
     * Advances to {@code nowNanos} and returns the bytes to write now (empty, or one byte: the plugin writes
     * one byte at a time with 50 ms between bytes).
     */
    public byte[] bytesDue(long nowNanos) {
        link.at(nowNanos);
        if (result == null && nowNanos - deadline >= 0) {
            end(decided != null ? decided : StonithResult.TIMEOUT);
        }
        return result != null ? new byte[0] : link.advance();
    }

    /** When to call {@link #bytesDue} next, ns; {@link Long#MAX_VALUE} when finished. */
    public long nextDeadlineNanos() {
        return result != null ? Long.MAX_VALUE : Math.min(link.nextDeadlineNanos(), deadline);
    }

    /** The final result, once the dialogue (restore included) is over. */
    public Optional<StonithResult> result() {
        return Optional.ofNullable(result);
    }

    /** The smallest grace delay found ({@code p}, seconds), "0" if not stepped. */
    public String shutdownDelay() {
        return shutdownDelay;
    }

    /** Commands and replies so far ({@code < Y}, {@code > SM}), for debug logs. */
    public List<String> transcript() {
        return link.transcript();
    }

    /** As {@link #transcript()} with each entry's time, ms after {@link #start} ({@code +1234 < Y}). */
    public List<String> timedTranscript() {
        return link.timedTranscript(startNanos);
    }

    // ---- sequences (cluster-glue apcsmart.c, facts §1.4) ----

    private void init(Consumer<StonithResult> then) {
        if (portInitialised) {                                   // APC_init on an open port: Y only
            smartMode(rc -> then.accept(rc == StonithResult.OK ? rc : StonithResult.OOPS));
            return;
        }
        portInitialised = true;
        smartMode(rc -> {
            if (rc != StonithResult.OK || !stepDelays) {
                then.accept(rc == StonithResult.OK ? rc : StonithResult.OOPS);
                return;
            }
            smallestDelay("p", (rc1, p) -> {
                if (rc1 != StonithResult.OK) {
                    then.accept(StonithResult.OOPS);
                    return;
                }
                smallestDelay("r", (rc2, r) -> {
                    if (rc2 != StonithResult.OK) {
                        then.accept(StonithResult.OOPS);
                        return;
                    }
                    shutdownDelay = p;
                    setVar("p", p, (rc3, oldP) -> {
                        if (rc3 != StonithResult.OK) {
                            then.accept(StonithResult.OOPS);
                            return;
                        }
                        setVar("r", r, (rc4, oldR) -> {
                            if (rc4 == StonithResult.OK) {
                                oldShutdownDelay = oldP;
                                oldWakeupDelay = oldR;
                            }
                            then.accept(rc4 == StonithResult.OK ? rc4 : StonithResult.OOPS);
                        });
                    });
                });
            });
        });
    }

    private void smartMode(Consumer<StonithResult> then) {
        link.exchange("Y", r -> then.accept(r.ok() && r.text().equals("SM") ? StonithResult.OK : StonithResult.ACCESS));
    }

    private void readVar(String var, Consumer<ApcSmartReply> then) {
        smartMode(rc -> {
            if (rc != StonithResult.OK) {
                then.accept(new ApcSmartReply(rc, ""));
            } else {
                link.exchange(var, then);
            }
        });
    }

    /** {@code APC_get_smallest_delay}: cycle {@code var} once round, keeping the smallest (atoi) value. */
    private void smallestDelay(String var, BiConsumer<StonithResult, String> then) {
        readVar(var, orig -> {
            if (!orig.ok()) {
                then.accept(orig.code(), null);
                return;
            }
            String[] smallest = {orig.text()};
            cycle(var, 0, resp -> {
                if (ApcSmartReply.atoi(resp) < ApcSmartReply.atoi(smallest[0])) {
                    smallest[0] = resp;
                }
                return resp.equals(orig.text());
            }, rc -> then.accept(rc, smallest[0]));
        });
    }

    /** {@code APC_set_ups_var}: step {@code var} until it reads {@code newValue}; hands back the old value. */
    private void setVar(String var, String newValue, BiConsumer<StonithResult, String> then) {
        readVar(var, orig -> {
            if (!orig.ok() || orig.text().equals(newValue)) {
                then.accept(orig.code(), orig.text());
                return;
            }
            boolean[] reached = {false};
            cycle(var, 0, resp -> {
                reached[0] = resp.equals(newValue);
                return reached[0] || resp.equals(orig.text());
            }, rc -> then.accept(rc == StonithResult.OK && !reached[0] ? StonithResult.OOPS : rc, orig.text()));
        });
    }

    /** {@code - Y var} repeatedly until {@code stop} says so; OOPS after {@link #MAX_CYCLE} steps. */
    private void cycle(String var, int steps, Predicate<String> stop, Consumer<StonithResult> then) {
        if (steps >= MAX_CYCLE) {
            then.accept(StonithResult.OOPS);
            return;
        }
        link.exchange("-", step -> {
            if (!step.ok()) {
                then.accept(step.code());
                return;
            }
            readVar(var, resp -> {
                if (!resp.ok()) {
                    then.accept(resp.code());
                } else if (stop.test(resp.text())) {
                    then.accept(StonithResult.OK);
                } else {
                    cycle(var, steps + 1, stop, then);
                }
            });
        });
    }

    private void registerBits(String register, int bits, BiConsumer<Boolean, Boolean> then) {
        readVar(register, r -> {
            Optional<Integer> value = r.ok() ? ApcSmartReply.hexByte(r.text()) : Optional.empty();
            then.accept(value.map(v -> (v & bits) == bits).orElse(false), value.isEmpty());
        });
    }

    /** {@code apcsmart_ReqOnOff}. */
    private void onOff(Operation op, Consumer<StonithResult> then) {
        String cmd = op == Operation.POWER_OFF ? "Z" : "\u000e";
        Runnable confirmed = confirm == Confirm.POLL
                ? () -> confirmPolling(op, link.now() + CONFIRM_WINDOW_MS * MS, then)
                : () -> link.pause(1000, () -> registerBits("~", 0x40, (off, err) -> {
                    boolean wanted = op == Operation.POWER_OFF ? off : !off;
                    then.accept(!err && wanted ? StonithResult.OK : StonithResult.RESETFAIL);
                }));
        smartMode(rc -> ifOk(rc, then, () -> link.sendOnly(cmd, () -> link.pause(2000, () -> link.sendOnly(cmd,
                confirmed)))));
    }

    /** {@link Confirm#POLL}: {@code Y ~} until Register 1 bit 0x40 says {@code op} happened, or {@code until} passed. */
    private void confirmPolling(Operation op, long until, Consumer<StonithResult> then) {
        registerBits("~", 0x40, (off, err) -> {
            boolean wanted = op == Operation.POWER_OFF ? off : !off;
            if (!err && wanted) {
                then.accept(StonithResult.OK);
            } else if (link.now() + CONFIRM_POLL_MS * MS - until > 0) {
                then.accept(StonithResult.RESETFAIL);
            } else {
                link.pause(CONFIRM_POLL_MS, () -> confirmPolling(op, until, then));
            }
        });
    }

    /** {@code apcsmart_ReqGenericReset}. */
    private void genericReset() {
        link.exchange("S", s -> {
            if (accepted(s)) {
                poll(0);
                return;
            }
            link.exchange("@000", at -> {
                if (accepted(at)) {
                    poll(0);
                } else if (at.text().equals("NA")) {             // output off, or busy
                    registerBits("~", 0x40, (off, err) -> {
                        if (off) {
                            onOff(Operation.POWER_ON, this::decide);
                        } else {
                            decide(StonithResult.RESETFAIL);
                        }
                    });
                } else {
                    decide(StonithResult.RESETFAIL);
                }
            });
        });
    }

    private static boolean accepted(ApcSmartReply r) {
        return r.ok() && (r.text().equals("*") || r.text().equals("OK"));
    }

    private void poll(int attempt) {
        if (attempt >= ApcSmartReply.atoi(shutdownDelay) + 10) {
            decide(StonithResult.RESETFAIL);                      // "timed out waiting for reset to end"
            return;
        }
        registerBits("8", 0x08, (sleeping, err) -> {
            if (sleeping) {
                decide(StonithResult.OK);
            } else {
                link.pause(1000, () -> poll(attempt + 1));
            }
        });
    }

    // ---- outcome ----

    private void decide(StonithResult rc) {
        decided = rc;
        if (oldShutdownDelay == null) {
            end(rc);
            return;
        }
        // APC_deinit: Y, then step p and r back to their old values; failures only logged by the plugin
        smartMode(ignored -> setVar("p", oldShutdownDelay, (a, b) -> setVar("r", oldWakeupDelay, (c, d) -> end(rc))));
    }

    private void end(StonithResult rc) {
        result = rc;
        link.stop();
    }

    private void ifOk(StonithResult rc, Consumer<StonithResult> onFail, Runnable next) {
        if (rc == StonithResult.OK) {
            next.run();
        } else {
            onFail.accept(rc);
        }
    }
}
