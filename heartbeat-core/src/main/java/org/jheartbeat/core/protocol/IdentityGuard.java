package org.jheartbeat.core.protocol;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.Effect.Level;
import org.jheartbeat.core.takeover.TakeoverEvent;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;

/**
 * The impostor guard: owns whether another live node sends with this node's name (a second daemon started
 * as this node, for example on a machine whose host name a Hostname resource took over). Tells such frames
 * from our own echoes and from our previous run's, and decides the {@link TakeoverEvent.IdentityConflict}
 * that keeps the takeover machine from starting anything until that node has been silent for deadtime.
 * Pure: time and deadtime come in as arguments; it appends log lines to the caller's effects and returns
 * the event to feed, which the engine carries out. Not thread-safe (the engine's thread owns it).
 */
final class IdentityGuard {
    private final NodeName me;
    /** Until when another node using our name counts as live (monotonic ns); MIN_VALUE: none heard. */
    private long untilNanos = Long.MIN_VALUE;

    /** @param me this node */
    IdentityGuard(NodeName me) {
        this.me = me;
    }

    /**
     * Whether a frame that carries our name comes from another instance: a node UUID other than ours,
     * or (without a UUID) a generation newer than ours. Our own echoes carry our UUID and generation; a
     * previous run's frames our UUID and an older generation (Heartbeat's generation only grows).
     *
     * @param ourUuid       our node UUID (16 bytes)
     * @param ourGeneration our generation
     * @return what tells it apart, for the log; empty for our own frames
     */
    static Optional<String> otherInstance(HaMessage message, byte[] ourUuid, long ourGeneration) {
        Optional<byte[]> uuid = message.getBinary(Field.SOURCE_UUID).filter(u -> u.length == 16);
        long hg = FrameAdmission.parseHex(message.get(Field.GENERATION).orElse("0"), -1);
        if (uuid.isPresent() && !Arrays.equals(uuid.get(), ourUuid)) {
            return Optional.of("node UUID " + HexFormat.of().formatHex(uuid.get()) + ", generation " + hg);
        }
        if (uuid.isEmpty() && hg > ourGeneration) {
            return Optional.of("generation " + hg + ", ours is " + ourGeneration);
        }
        return Optional.empty();
    }

    /**
     * A live node sends with our name ({@code what} tells it apart): it counts as live for
     * {@code deadtimeNanos} from now. On a new conflict, a CRIT line goes to {@code out}.
     *
     * @return {@code IdentityConflict(true)} to feed on a new conflict; empty while one lasts
     */
    Optional<TakeoverEvent> heard(String what, String source, String link, long now, long deadtimeNanos,
                                  List<Effect> out) {
        boolean fresh = untilNanos == Long.MIN_VALUE;
        untilNanos = now + deadtimeNanos;
        if (!fresh) {
            return Optional.empty();
        }
        out.add(new Effect.LogLine(Level.CRIT, "Another live node uses this node's name " + me + " (" + what
                + ", from " + source + " on " + link + "): this node starts no resource group and takes nothing over"
                + " until it has been silent for deadtime. Stop the daemon that started as " + me + " on that machine"
                + " (was its host name taken over by a Hostname resource? start it with --node-name)."));
        return Optional.of(new TakeoverEvent.IdentityConflict(true));
    }

    /**
     * The other node using our name has been silent for deadtime by {@code now}: a WARN goes to {@code out}.
     *
     * @return {@code IdentityConflict(false)} to feed when the conflict ends now; empty otherwise
     */
    Optional<TakeoverEvent> expired(long now, List<Effect> out) {
        if (untilNanos == Long.MIN_VALUE || now < untilNanos) {
            return Optional.empty();
        }
        untilNanos = Long.MIN_VALUE;
        out.add(new Effect.LogLine(Level.WARN, "The other node using this node's name " + me + " has been silent"
                + " for deadtime; this node acts on its groups again."));
        return Optional.of(new TakeoverEvent.IdentityConflict(false));
    }
}
