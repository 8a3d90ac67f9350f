package org.jheartbeat.core.testkit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.stream.Collectors;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.protocol.NodeEngine;
import org.jheartbeat.core.protocol.OutboundStamper;
import org.jheartbeat.core.testkit.PcapReader.UdpDatagram;
import org.jheartbeat.core.wire.HaField;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WireFormatException;

/**
 * One of our {@link NodeEngine}s driven by a recorded peer instead of a live one: the peer's captured
 * datagrams are delivered at their capture times on a {@link FakeClock}, and what our engine sends goes
 * nowhere (the recorded peer already reacted to the real node that stood in our place). Otherwise it
 * behaves like {@link TwoNodeHarness}: {@code onTimer} every {@value #TICK_MILLIS} ms of fake time,
 * group starts and stops complete {@code groupOpMillis} after they were asked for (one after the other),
 * every start/stop decision and log line is recorded with its capture time. Deterministic: no sleeps,
 * no real clock.
 *
 * <p>Times: capture time is microseconds since the capture's origin (normally its first frame's
 * timestamp); the fake monotonic clock is {@code FakeClock}'s start plus that time in ns.
 */
public final class CaptureReplay {
    /** Timer granularity in ms, as in {@link TwoNodeHarness#run(long)}. */
    public static final long TICK_MILLIS = 10;
    private static final long TICK_NANOS = TICK_MILLIS * 1_000_000L;

    /**
     * A start or stop our engine asked for.
     *
     * @param atMicros capture time of the decision, µs since the origin
     * @param start    true for {@link Effect.StartGroup}, false for {@link Effect.StopGroup}
     * @param group    the group key (first resource of the haresources line)
     * @param reason   the engine's reason text
     */
    public record Decision(long atMicros, boolean start, String group, String reason) {
        @Override
        public String toString() {
            return String.format("%8.3f s %s %s (%s)", atMicros / 1e6, start ? "START" : "STOP", group, reason);
        }
    }

    /**
     * Something our engine logged or sent.
     *
     * @param atMicros capture time, µs since the origin
     * @param text     the log line ({@code LEVEL: text}) or the sent message's fields ({@code sent: t=… …})
     */
    public record Line(long atMicros, String text) {
        @Override
        public String toString() {
            return String.format("%8.3f s %s", atMicros / 1e6, text);
        }
    }

    private final FakeClock clock = new FakeClock();
    private final long originNanos = clock.nanoTime();
    private final ClusterConfig config;
    private final NodeEngine engine;
    private final MessageAuthenticator authenticator;
    private final long groupOpNanos;
    private final long originMicros;
    private final Deque<long[]> pendingOps = new ArrayDeque<>(); // {dueNanos, group, start?1:0}
    private final List<Decision> decisions = new ArrayList<>();
    private final List<Line> logs = new ArrayList<>();
    private final List<Line> sent = new ArrayList<>();
    private long nextTickNanos;

    /**
     * Starts our engine at capture time {@code startMicros}.
     *
     * @param config        the cluster configuration of the captured cluster
     * @param me            the node our engine plays
     * @param uuid          its 16-byte UUID (the captured node's {@code srcuuid}, so the peer's addressed messages reach it)
     * @param generation    its generation ({@code hg})
     * @param ackTrigger    0..9, see {@link NodeEngine}
     * @param originMicros  absolute capture timestamp (µs since the epoch) that is capture time 0
     * @param startMicros   capture time (µs since the origin) at which our engine starts
     * @param groupOpMillis how long each group start or stop takes, in ms of fake time
     */
    public CaptureReplay(ClusterConfig config, NodeName me, byte[] uuid, long generation, int ackTrigger,
                         long originMicros, long startMicros, long groupOpMillis) {
        this.config = config;
        this.originMicros = originMicros;
        this.groupOpNanos = groupOpMillis * 1_000_000L;
        this.authenticator = new MessageAuthenticator(config.authKeys());
        clock.advance(Duration.ofNanos(startMicros * 1000));
        OutboundStamper stamper = new OutboundStamper(me, uuid, generation, authenticator, () -> "0.00 0.00 0.00 1/1 1");
        this.engine = new NodeEngine(config, me, stamper, ackTrigger, clock.nanoTime());
        this.nextTickNanos = clock.nanoTime() + TICK_NANOS;
    }

    /** Runs the timers up to the datagram's capture time, then hands it to our engine as arriving on {@code link}. */
    public void deliver(UdpDatagram d, String link) {
        advanceTo(d.timestampMicros() - originMicros);
        handle(engine.onFrame(link, d.srcIp() + ":" + d.srcPort(), d.payload(), clock.nanoTime(),
                clock.currentTimeMillis()));
    }

    /**
     * Moves fake time to capture time {@code micros}: at every 10 ms tick on the way it completes the
     * group operations that are due and calls {@code onTimer}.
     */
    public void advanceTo(long micros) {
        long target = originNanos + micros * 1000;
        if (target < clock.nanoTime()) {
            throw new IllegalArgumentException("capture time goes backwards: " + micros + " µs");
        }
        while (nextTickNanos <= target) {
            clock.advance(Duration.ofNanos(nextTickNanos - clock.nanoTime()));
            nextTickNanos += TICK_NANOS;
            tick();
        }
        clock.advance(Duration.ofNanos(target - clock.nanoTime()));
    }

    private void tick() {
        while (!pendingOps.isEmpty() && pendingOps.peekFirst()[0] <= clock.nanoTime()) {
            long[] op = pendingOps.removeFirst();
            handle(engine.onGroupDone((int) op[1], op[2] == 1, true, clock.nanoTime(), clock.currentTimeMillis()));
        }
        handle(engine.onTimer(clock.nanoTime(), clock.currentTimeMillis()));
    }

    private void handle(List<Effect> effects) {
        for (Effect e : effects) {
            if (e instanceof Effect.Transmit t) {
                sent.add(new Line(now(), "sent: " + summary(t.packet().netstring())));
            } else if (e instanceof Effect.StartGroup s) {
                schedule(s.group(), true, s.reason().describe(engine.peer()));
            } else if (e instanceof Effect.StopGroup s) {
                schedule(s.group(), false, s.reason().describe(engine.peer()));
            } else if (e instanceof Effect.LogLine l) {
                logs.add(new Line(now(), l.level() + ": " + l.text()));
            } else if (e instanceof Effect.Exit) {
                logs.add(new Line(now(), "EXIT"));
            }
        }
    }

    private void schedule(int group, boolean start, String reason) {
        decisions.add(new Decision(now(), start, config.resourceGroups().get(group).key(), reason));
        long last = pendingOps.isEmpty() ? clock.nanoTime() : Math.max(clock.nanoTime(), pendingOps.peekLast()[0]);
        pendingOps.addLast(new long[] {last + groupOpNanos, group, start ? 1 : 0});
    }

    /** {@code t=… name=value …} of a packet we sent, without control fields, for traces. */
    private String summary(byte[] packet) {
        try {
            HaMessage m = WireCodec.decode(packet, authenticator);
            return m.fields().stream().map(HaField::name)
                    .filter(n -> !List.of("src", "srcuuid", "destuuid", "hg", "ts", "ld", "ttl", "auth").contains(n))
                    .map(n -> n + "=" + m.get(n).orElse("?")).collect(Collectors.joining(" "));
        } catch (WireFormatException e) {
            return "undecodable packet: " + e.getMessage();
        }
    }

    private long now() {
        return (clock.nanoTime() - originNanos) / 1000;
    }

    /** Every start/stop our engine asked for, in order. */
    public List<Decision> decisions() {
        return List.copyOf(decisions);
    }

    /** Every line our engine logged, in order. */
    public List<Line> logs() {
        return List.copyOf(logs);
    }

    /** Every message our engine sent (to nowhere), in order. */
    public List<Line> sent() {
        return List.copyOf(sent);
    }

    /** Our engine, for end-state checks. */
    public NodeEngine engine() {
        return engine;
    }

    /** The fake clock (monotonic and wall), to hand frames to {@link #engine()} directly at the current time. */
    public FakeClock clock() {
        return clock;
    }
}
