package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.control.ClusterCounters;
import org.jheartbeat.core.membership.LinkStatus;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.membership.SequenceTracker;
import org.jheartbeat.core.takeover.Effect;
import org.jheartbeat.core.takeover.PeerPresence;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverMachine;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.CaptureReplay;
import org.jheartbeat.core.testkit.Mutations;
import org.jheartbeat.core.testkit.Mutations.Mutant;
import org.jheartbeat.core.testkit.PcapReader;
import org.jheartbeat.core.testkit.PcapReader.UdpDatagram;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaField;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.HeartbeatVectors;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WireFormatException;

/**
 * Fuzzer of the authenticated receive path, {@link NodeEngine#onFrame}: our engine
 * plays node2 of the lifecycle capture ({@link LifecycleReplayTest}), fed every datagram of the real
 * node1 on a fake clock up to the capture's end (node1 restarted, active, owning labsvc). Then, 1 ms
 * later, it is handed hostile frames grown from the capture (both directions, both of node1's
 * generations), and the receiving state is compared before and after: the failure detector's view
 * (status, links, next deadline: a refreshed liveness moves it), the takeover machine's, the engine's
 * ({@link View}).
 *
 * <p>Properties: a frame that does not verify (mutated after signing, signed with another key) is
 * counted as a bad packet, changes nothing and causes nothing but a log line; a genuine frame replayed
 * (older sequence number or generation, our own frame) is counted as stale, or dropped as a duplicate,
 * and changes nothing — except the two replays the engine takes by design (docs/fuzzing.md, "Known
 * limits"): a copy of the peer's newest sequenced frame (redundant media), and an unsequenced {@code
 * NS_} frame of its current generation, both of which refresh the link they arrive on and nothing else; a well-signed frame with hostile
 * field values never makes the engine throw. Cases per property: {@code -Djhb.fuzz.tries}.
 */
class ReceivePathFuzzTest {
    static final NodeName N1 = LifecycleReplayTest.N1;
    static final String SOURCE = "198.18.1.66:694";
    static final List<UdpDatagram> DATAGRAMS = PcapReader.read(HeartbeatVectors.lifecycleCapture()).datagrams();
    static final List<byte[]> FRAMES = DATAGRAMS.stream().map(UdpDatagram::payload).toList();
    static final MessageAuthenticator AUTH = HeartbeatVectors.authenticatorFor("lifecycle");

    /** The engine settled at the capture's end; rebuilt after a try that changed it. */
    private static CaptureReplay settled;
    /** The peer's generation and newest sequence number, read from the frames delivered. */
    private static long peerGeneration;
    private static long peerNewestSeq;
    /** Seq numbers for the hostile-but-signed frames (each one new, so it passes the sequence check). */
    private static long nextHostileSeq;
    private static CaptureReplay hostileEngine;

    /** Everything of the receiving node that a packet could change, bar the bad/stale counters. */
    record View(NodeStatus peerStatus, Map<String, LinkStatus> links, boolean heard, long detectorDeadline,
                TakeoverState state, ResourceSet holdings, ResourceSet peerHoldings, PeerPresence presence,
                boolean settled, boolean peerStable, TakeoverMachine.Handover handover, long machineDeadline,
                NodeStatus localStatus, String rscStatus, String configStatus, int peerPingCount, long wakeup,
                ClusterCounters counters) {
        static View of(NodeEngine e) {
            TakeoverMachine m = e.machine();
            return new View(e.detector().status(N1), e.detector().links(N1), e.detector().heardFrom(N1),
                    e.detector().nextDeadlineNanos(), m.state(), m.holdings(), m.peerHoldings(), m.peerPresence(),
                    m.settled(), m.peerStable(), m.handovers().outcome(), m.nextDeadlineNanos(), e.localStatus(), e.rscStatus(),
                    e.configStatus(), e.peerPingCount(), e.nextWakeupNanos(), e.counters());
        }

        /** This view with {@code other}'s liveness deadlines: what a refreshed link may change. */
        View withDeadlines(View other) {
            return new View(peerStatus, links, heard, other.detectorDeadline, state, holdings, peerHoldings, presence,
                    settled, peerStable, handover, machineDeadline, localStatus, rscStatus, configStatus, peerPingCount,
                    other.wakeup, counters);
        }
    }

    private static synchronized CaptureReplay settledEngine() {
        if (settled == null) {
            settled = replayAll();
        }
        return settled;
    }

    private static CaptureReplay replayAll() {
        long origin = DATAGRAMS.get(0).timestampMicros();
        CaptureReplay r = new CaptureReplay(LifecycleReplayTest.lifecycleConfig(), LifecycleReplayTest.N2,
                node2Uuid(), 1, 7, origin, 0, LifecycleReplayTest.GROUP_OP_MILLIS);
        for (UdpDatagram d : DATAGRAMS) {
            if (d.srcIp().equals(LifecycleReplayTest.NODE1_IP)) {
                r.deliver(d, "eth1");
                HaMessage m = decode(d.payload()).orElseThrow();
                m.get(Field.SEQ).ifPresent(seq -> {
                    peerGeneration = Long.parseLong(m.get(Field.GENERATION).orElseThrow(), 16);
                    peerNewestSeq = Long.parseLong(seq, 16);
                });
            }
        }
        r.advanceTo(DATAGRAMS.get(DATAGRAMS.size() - 1).timestampMicros() - origin);
        r.clock().advanceMillis(1);
        assertThat(r.engine().detector().status(N1)).isEqualTo(NodeStatus.ACTIVE);
        assertThat(r.engine().machine().state()).isEqualTo(TakeoverState.STABLE);
        return r;
    }

    private static byte[] node2Uuid() {
        return DATAGRAMS.stream().filter(d -> d.srcIp().equals(LifecycleReplayTest.NODE2_IP)).findFirst()
                .flatMap(d -> decode(d.payload())).flatMap(m -> m.getBinary(Field.SOURCE_UUID)).orElseThrow();
    }

    static Optional<HaMessage> decode(byte[] packet) {
        try {
            return Optional.of(WireCodec.decode(packet, AUTH));
        } catch (WireFormatException e) {
            return Optional.empty();
        }
    }

    /** Hands {@code packet} to the settled engine; checks that nothing changed unless {@code mayRefresh}. */
    private static void deliverAndCheck(byte[] packet, Object what) {
        CaptureReplay r = settledEngine();
        NodeEngine e = r.engine();
        View before = View.of(e);
        long bad = e.badPackets().total();
        long stale = e.staleFrames().total();
        List<Effect> effects = e.onFrame("eth1", SOURCE, packet, r.clock().nanoTime(), r.clock().currentTimeMillis());
        View after = View.of(e);
        long counted = e.badPackets().total() - bad + e.staleFrames().total() - stale;
        Optional<HaMessage> m = decode(packet);
        String kind = m.map(ReceivePathFuzzTest::replayKind).orElse("refused");
        Statistics.collect(kind);
        if (!after.equals(before) || !effects.stream().allMatch(x -> x instanceof Effect.LogLine)) {
            settled = null; // the next try starts from a fresh engine
        }
        if (kind.equals("newest copy") || kind.equals("NS_ of current generation")) {
            // the engine's rules: a copy of the newest frame (redundant media) and an NS_ frame refresh a link
            assertThat(after.withDeadlines(before)).as("%s (%s)", what, kind).isEqualTo(before);
            return;
        }
        assertThat(after).as("state changed by %s (%s)", what, kind).isEqualTo(before);
        assertThat(effects).as("effects of %s (%s)", what, kind).allMatch(x -> x instanceof Effect.LogLine);
        if (kind.equals("refused")) {
            assertThat(e.badPackets().total() - bad).as("bad-packet count of %s", what).isEqualTo(1);
        } else if (!kind.equals("duplicate")) {
            assertThat(counted).as("stale count of %s (%s)", what, kind).isEqualTo(1);
        }
    }

    /** How the engine should see a genuine message: own frame, old generation, duplicate, newest copy, NS_. */
    static String replayKind(HaMessage m) {
        if (m.get(Field.SOURCE).map("node2"::equals).orElse(false)) {
            return "own frame";
        }
        long hg = Long.parseLong(m.get(Field.GENERATION).orElse("0"), 16);
        if (hg < peerGeneration) {
            return "old generation";
        }
        Optional<String> seq = m.get(Field.SEQ);
        if (seq.isEmpty()) {
            return "NS_ of current generation";
        }
        long s = Long.parseLong(seq.get(), 16);
        if (s == peerNewestSeq) {
            return "newest copy";
        }
        return peerNewestSeq - s >= SequenceTracker.WINDOW ? "stale" : "duplicate";
    }

    @Provide
    Arbitrary<Mutant> frames() {
        return Mutations.of(FRAMES);
    }

    @Property
    void aMutatedFrameIsRefusedCountedAndChangesNothing(@ForAll("frames") Mutant m) {
        deliverAndCheck(m.bytes(), m);
    }

    /** Keys other than {@code 1 sha1 testsecret}: another secret, another method, an undefined index. */
    @Provide
    Arbitrary<MessageAuthenticator> wrongKeys() {
        Arbitrary<byte[]> secret = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(40)
                .filter(k -> !new String(k, java.nio.charset.StandardCharsets.ISO_8859_1).replaceAll("\0+$", "")
                        .equals("testsecret"));
        Arbitrary<MessageAuthenticator> otherSecret = Combinators.combine(Arbitraries.of(AuthMethod.SHA1, AuthMethod.MD5),
                secret).as((method, k) -> new MessageAuthenticator(AuthKeys.single(1, method, k)));
        Arbitrary<MessageAuthenticator> otherIndex = Arbitraries.integers().between(0, 15).filter(i -> i != 1)
                .map(i -> new MessageAuthenticator(AuthKeys.single(i, AuthMethod.SHA1,
                        HeartbeatVectors.ascii("testsecret"))));
        Arbitrary<MessageAuthenticator> testsecretAsMd5 = Arbitraries.just(new MessageAuthenticator(
                AuthKeys.single(1, AuthMethod.MD5, HeartbeatVectors.ascii("testsecret"))));
        return Arbitraries.oneOf(otherSecret, otherIndex, testsecretAsMd5);
    }

    @Provide
    Arbitrary<Integer> node1Frames() {
        return Arbitraries.integers().between(0, DATAGRAMS.size() - 1)
                .filter(i -> DATAGRAMS.get(i).srcIp().equals(LifecycleReplayTest.NODE1_IP));
    }

    /** node1's real messages, re-signed with a wrong key (and, half the time, made fresh: the next seq). */
    @Property
    void aFrameSignedWithAnotherKeyIsRefusedCountedAndChangesNothing(@ForAll("node1Frames") int i,
                                                                     @ForAll("wrongKeys") MessageAuthenticator k,
                                                                     @ForAll boolean fresh) {
        settledEngine();
        HaMessage m = decode(FRAMES.get(i)).orElseThrow().without(Field.AUTH);
        if (fresh && m.get(Field.SEQ).isPresent()) {
            m = m.with(Field.GENERATION, Long.toHexString(peerGeneration)).with(Field.SEQ, Long.toHexString(peerNewestSeq + 1));
        }
        byte[] forged = WireCodec.encodeForUdp(m, k, true);
        deliverAndCheck(forged, "frame " + (i + 1) + " signed " + k.keys().signingKey().method() + " index "
                + k.keys().signingKey().index());
    }

    /** node1's genuine frames, unchanged: all of them are replays by now. */
    @Property
    void aReplayedFrameIsDroppedAndChangesNothing(@ForAll("node1Frames") int i) {
        deliverAndCheck(FRAMES.get(i), "replay of frame " + (i + 1));
    }

    /** A field of a real message of node1 changed to a hostile value (or duplicated, or dropped). */
    record Edit(int frame, int field, int op, String value) {
    }

    @Provide
    Arbitrary<List<Edit>> edits() {
        return Combinators.combine(node1Frames(), Arbitraries.integers().between(0, 40),
                Arbitraries.integers().between(0, 3), Arbitraries.of(Mutations.HOSTILE)).as(Edit::new)
                .list().ofMinSize(1).ofMaxSize(5);
    }

    /**
     * Well-signed frames (right key, fresh seq) with hostile values reach every handler; none may throw.
     * The engine carries on from try to try, so later tries meet the states earlier ones caused.
     */
    @Property
    void aWellSignedFrameWithHostileFieldsNeverMakesTheEngineThrow(@ForAll("edits") List<Edit> edits) {
        synchronized (ReceivePathFuzzTest.class) {
            if (hostileEngine == null) {
                hostileEngine = replayAll();
                nextHostileSeq = peerNewestSeq + 1;
            }
        }
        for (Edit edit : edits) {
            HaMessage m = decode(FRAMES.get(edit.frame())).orElseThrow().without(Field.AUTH);
            List<HaField> fields = new ArrayList<>(m.fields());
            int at = edit.field() % fields.size();
            HaField f = fields.get(at);
            switch (edit.op()) {
                case 0 -> fields.set(at, new HaField(f.name(), f.type(), HeartbeatVectors.ascii(edit.value())));
                case 1 -> fields.add(at, f);
                case 2 -> fields.remove(at);
                default -> fields.add(at, new HaField(f.name(), f.type(), HeartbeatVectors.ascii(edit.value())));
            }
            HaMessage hostile = HaMessage.of(fields);
            if (m.get(Field.SEQ).isPresent() && !f.name().equals(Field.SEQ.wireName())) {
                hostile = hostile.with(Field.SEQ, Long.toHexString(nextHostileSeq++));
            }
            byte[] packet;
            try {
                packet = WireCodec.encodeForUdp(hostile, AUTH, true);
            } catch (IllegalArgumentException unencodable) {
                continue;
            }
            hostileEngine.clock().advanceMillis(10);
            List<Effect> effects = hostileEngine.engine().onFrame("eth1", SOURCE, packet,
                    hostileEngine.clock().nanoTime(), hostileEngine.clock().currentTimeMillis());
            assertThat(effects).as("%s", edit).isNotNull();
            hostileEngine.engine().onTimer(hostileEngine.clock().nanoTime(), hostileEngine.clock().currentTimeMillis());
        }
    }
}
