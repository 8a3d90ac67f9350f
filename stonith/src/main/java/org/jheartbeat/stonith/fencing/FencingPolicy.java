package org.jheartbeat.stonith.fencing;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jheartbeat.core.config.OperationTimeouts;
import org.jheartbeat.stonith.ResetRequest;
import org.jheartbeat.stonith.StonithDevice;

/**
 * How this node fences its peer before a takeover: the {@code stonith:} section of jheartbeat.yaml
 * (docs/design/stonith.md, "Fencing action").
 *
 * <ul>
 *   <li>{@link Action#AUTO} (default): power the peer off where the device confirms an off
 *       ({@link StonithDevice#confirmsPowerOff()}: {@code apcsmart}), else reset it as Heartbeat 3.0.6 does
 *       (cluster-glue's {@code ST_GENERIC_RESET}, facts stonith-sync §2.5).</li>
 *   <li>{@link Action#OFF}: always power off (Pacemaker's {@code pcmk_reboot_action=off}); the device's own
 *       {@code off} must confirm it.</li>
 *   <li>{@link Action#RESET}: always reset, as Heartbeat (the apcsmart reset waits out the UPS's grace delay,
 *       20 s or more, facts §1.7.2).</li>
 * </ul>
 * After a confirmed off the peer is switched back on {@code powerOnAfter} later (default
 * {@link #DEFAULT_POWER_ON_AFTER}, so it comes back as after a reset, which keeps it off for the UPS's
 * minimum off time), or never ({@code power_on: never}: it stays off until an admin switches it on, which
 * avoids a fencing loop when the cluster links stay cut).
 * When every link is cut the node that loses the fencing race waits {@code fenceDelay} before fencing
 * (docs/design/stonith.md, "Fence delay"; Pacemaker's {@code priority-fencing-delay}).
 *
 * @param action       which request fences the peer
 * @param powerOnAfter how long after a confirmed off the peer is switched on again; empty: never
 * @param fenceDelay   how long the node holding fewer groups (or, with as many, the one later in ha.cf)
 *                     waits before fencing a lost peer; {@link Duration#ZERO}: never waits
 */
public record FencingPolicy(Action action, Optional<Duration> powerOnAfter, Duration fenceDelay) {
    /** Default wait between a confirmed off and the power-on, s (the lab's simulated UPS's minimum off time). */
    public static final Duration DEFAULT_POWER_ON_AFTER = Duration.ofSeconds(10);

    /**
     * Default fence delay, 5 s: longer than a whole fence of the winning node through the lab's APC UPS
     * (off, then the confirming status read, about 3 s; docs/design/stonith.md, "Fence delay").
     */
    public static final Duration DEFAULT_FENCE_DELAY = Duration.ofSeconds(5);

    /** Longest fence delay accepted, 2 min: a lost peer's groups stay down for the whole delay. */
    public static final Duration MAX_FENCE_DELAY = Duration.ofMinutes(2);

    /**
     * The default: off where the device confirms it, power on again after {@link #DEFAULT_POWER_ON_AFTER},
     * fence delay {@link #DEFAULT_FENCE_DELAY}.
     */
    public static final FencingPolicy DEFAULT = new FencingPolicy(Action.AUTO, Optional.of(DEFAULT_POWER_ON_AFTER));

    /** Which request fences the peer. */
    public enum Action {
        AUTO, OFF, RESET;

        /** The word in jheartbeat.yaml. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public FencingPolicy {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(powerOnAfter, "powerOnAfter");
        Objects.requireNonNull(fenceDelay, "fenceDelay");
        if (fenceDelay.isNegative()) {
            throw new IllegalArgumentException("fence delay " + fenceDelay + " is negative");
        }
    }

    /** A policy with the {@link #DEFAULT_FENCE_DELAY default fence delay}. */
    public FencingPolicy(Action action, Optional<Duration> powerOnAfter) {
        this(action, powerOnAfter, DEFAULT_FENCE_DELAY);
    }

    /** The request that fences the peer with {@code device} under this policy. */
    public ResetRequest requestFor(StonithDevice device) {
        return switch (action) {
            case OFF -> ResetRequest.POWER_OFF;
            case RESET -> ResetRequest.GENERIC_RESET;
            case AUTO -> device.confirmsPowerOff() ? ResetRequest.POWER_OFF : ResetRequest.GENERIC_RESET;
        };
    }

    /**
     * Parses {@code action:}.
     *
     * @throws IllegalArgumentException naming the accepted words
     */
    public static Action parseAction(String text) {
        for (Action a : Action.values()) {
            if (a.word().equals(text.trim().toLowerCase(Locale.ROOT))) {
                return a;
            }
        }
        throw new IllegalArgumentException("[" + text + "] is not an action; write auto (off where the device"
                + " confirms it, else reset), off or reset");
    }

    /**
     * Parses {@code fence_delay:}: {@code 0} or {@code off} (no delay), or a duration as
     * {@link OperationTimeouts#parseDuration} ({@code 5s}, {@code 1500ms}) of at most {@link #MAX_FENCE_DELAY}.
     *
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static Duration parseFenceDelay(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("0") || t.equals("off")) {
            return Duration.ZERO;
        }
        Duration d;
        try {
            d = OperationTimeouts.parseDuration(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[" + text + "] is not a delay; write a delay such as 5s or 1500ms"
                    + " (longer than a whole fence of the peer), or 0 for none");
        }
        if (d.compareTo(MAX_FENCE_DELAY) > 0) {
            throw new IllegalArgumentException("[" + text + "] is longer than " + MAX_FENCE_DELAY.toMinutes()
                    + " min: a lost node's groups stay down for the whole delay; a few seconds more than one"
                    + " fence (off and confirm) is enough, e.g. 5s");
        }
        return d;
    }

    /**
     * Parses {@code power_on:}: {@code never}, or a duration as {@link OperationTimeouts#parseDuration}
     * ({@code 10s}, {@code 2min}).
     *
     * @return empty for never
     * @throws IllegalArgumentException naming the accepted forms
     */
    public static Optional<Duration> parsePowerOn(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("never")) {
            return Optional.empty();
        }
        try {
            return Optional.of(OperationTimeouts.parseDuration(t));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("[" + text + "] is neither never nor a delay; write never (the"
                    + " fenced node stays off) or a delay such as 10s or 2min");
        }
    }
}
