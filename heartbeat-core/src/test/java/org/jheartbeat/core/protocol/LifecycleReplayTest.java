package org.jheartbeat.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.membership.NodeStatus;
import org.jheartbeat.core.takeover.GroupState;
import org.jheartbeat.core.takeover.ResourceSet;
import org.jheartbeat.core.takeover.TakeoverState;
import org.jheartbeat.core.testkit.CaptureReplay;
import org.jheartbeat.core.testkit.CaptureReplay.Decision;
import org.jheartbeat.core.testkit.CaptureReplay.Line;
import org.jheartbeat.core.testkit.PcapReader;
import org.jheartbeat.core.testkit.PcapReader.Capture;
import org.jheartbeat.core.testkit.PcapReader.UdpDatagram;
import org.jheartbeat.core.wire.Field;
import org.jheartbeat.core.wire.HaMessage;
import org.jheartbeat.core.wire.HeartbeatVectors;
import org.jheartbeat.core.wire.WireCodec;
import org.jheartbeat.core.wire.WireFormatException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lifecycle capture of two real Heartbeat 3.0.6 nodes
 * ({@code shared/vectors/heartbeat-3.0.6/lifecycle.pcap}, events in {@code lifecycle-events.txt}),
 * replayed into our {@link NodeEngine} playing node2, yields the resource decisions the real node2 made.
 *
 * <p>Our node2 gets only the real node1's datagrams (source 198.18.1.1), each at its capture time on a
 * fake clock ({@link CaptureReplay}: {@code onTimer} every 10 ms, group operations take 100 ms). It uses
 * the real node2's UUID, so node1's {@code destuuid}-addressed messages are for it. What it sends goes
 * nowhere: node1 in the capture already answered the real node2, which said the same things at about
 * the same moments. The real node2's decisions are read from its own {@code resource} announcements
 * in the capture.
 *
 * <p>All times in this class are seconds since the capture's first frame. The events file's times are
 * the scenario script's and agree with the capture to a few tenths of a second (node1's
 * {@code ask_resources … info=me} leaves 0.32 s after "22.19 hb_standby"; the restarted node1's first
 * packet is at 68.42, before the script logged "68.52 restarted").
 */
class LifecycleReplayTest {
    static final String NODE1_IP = "198.18.1.1";
    static final String NODE2_IP = "198.18.1.2";
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    static final String LABSVC = "labsvc";
    /** Fake time a group start or stop takes, in ms. */
    static final long GROUP_OP_MILLIS = 100;

    /**
     * The real node2's resource decisions, from the events file and its own packets (frame numbers of
     * lifecycle.pcap = lifecycle/lc-NNN.bin), each with the window (s) in which a faithful node2 decides.
     * (i) Before the first entry nothing is started: node1 owns labsvc (haresources {@code node1 labsvc}).
     */
    static final List<Expected> EXPECTED = List.of(
            // (ii) 22.19 hb_standby all on node1. Frames 82 me 22.506, 88 standby 23.507, 90 done 23.538 (node1);
            // the real node2 announces rsc_hold=all isstable=1 at 24.039 (frame 94), so it started labsvc by then.
            new Expected(true, LABSVC, 22.19, 24.10, "node1 hb_standby all: node2 takes labsvc"),
            // (iii) 36.31 hb_takeover all on node1 (frame 127, 36.506): node2 goes standby all. Node2 me 37.024,
            // node1 other 37.507, node2 rsc_hold=none info=standby 38.005 (frame 134), done 38.034 (frame 137).
            new Expected(false, LABSVC, 36.31, 38.10, "node1 hb_takeover all: node2 goes standby, stops labsvc"),
            // (iv) 50.4 SIGKILL. node1's last status is 50.003 with dt=1388 (5000 ms): dead from 55.003 on.
            // The real node2: stonith n_stnth 55.504 (frame 178), rsc_hold=all 55.518, mach_down 55.559.
            new Expected(true, LABSVC, 55.00, 56.00, "node1 dead after deadtime 5 s: node2 takes labsvc"),
            // (v) 68.52 node1 restarted (first packet 68.420, new hg). Auto-failback: node2 me 70.503,
            // node1 other 70.926, node2 rsc_hold=local info=standby 71.004 (frame 217), done 71.034.
            new Expected(false, LABSVC, 68.42, 71.10, "node1 back, auto_failback on: node2 gives labsvc back"));

    static Capture capture;
    static long originMicros;

    /**
     * One expected decision.
     *
     * @param start  start (true) or stop (false)
     * @param group  the group key
     * @param fromS  earliest time, s since the capture's first frame
     * @param untilS latest time, s
     * @param why    what it stands for
     */
    record Expected(boolean start, String group, double fromS, double untilS, String why) {
        boolean matches(boolean isStart, String key, long atMicros) {
            return isStart == start && group.equals(key) && atMicros >= fromS * 1e6 && atMicros <= untilS * 1e6;
        }

        @Override
        public String toString() {
            return String.format("%s %s in [%.2f, %.2f] s (%s)", start ? "START" : "STOP", group, fromS, untilS, why);
        }
    }

    @BeforeAll
    static void readCapture() {
        capture = PcapReader.read(HeartbeatVectors.lifecycleCapture());
        assertThat(capture.skipped()).isEmpty();
        originMicros = capture.datagrams().get(0).timestampMicros();
    }

    private static MessageAuthenticator auth() {
        return HeartbeatVectors.authenticatorFor("lifecycle");
    }

    private static HaMessage decode(UdpDatagram d) {
        try {
            return WireCodec.decode(d.payload(), auth());
        } catch (WireFormatException e) {
            throw new AssertionError("frame " + d.frame() + " does not decode: " + e.getMessage(), e);
        }
    }

    private static double seconds(long captureMicros) {
        return captureMicros / 1e6;
    }

    /** The real node2's 16-byte UUID: the {@code srcuuid} of every packet it sent. */
    static byte[] realNode2Uuid() {
        List<byte[]> uuids = capture.datagrams().stream().filter(d -> d.srcIp().equals(NODE2_IP))
                .map(d -> decode(d).getBinary(Field.SOURCE_UUID).orElseThrow()).toList();
        assertThat(uuids).isNotEmpty().allSatisfy(u -> assertThat(u).hasSize(16).isEqualTo(uuids.get(0)));
        return uuids.get(0);
    }

    /** The captured cluster's configuration (vectors README): built in code, as TwoNodeHarness does. */
    static ClusterConfig lifecycleConfig() {
        return new ClusterConfig(Path.of("/nonexistent/ha.d"),
                Timing.ofMillis(1000, 3000, 5000, 10_000), // keepalive 1, warntime 3, deadtime 5, initdead 10
                694, List.of(N1, N2), List.of(new MediumDecl.Ucast("eth1", NODE1_IP, 694, 1)), FailbackPolicy.ON,
                LogSettings.none(), HeartbeatVectors.keysFor("lifecycle"), // auth 1 / 1 sha1 testsecret
                List.of(new ResourceGroupDecl(N1, List.of(new ResourceSpec(LABSVC, List.of(), LABSVC)), 1)), java.util.List.of());
    }

    /**
     * What the real node2 decided, read from its own {@code resource} messages: whether it holds labsvc
     * (for node2 that is the {@code foreign} bit, labsvc's home being node1) after each one, with the
     * receiver's rules (facts E.5: {@code rtype=full} replaces, otherwise {@code none} resets and any
     * other value is ORed in); every change of that bit is a start or a stop, dated by the announcement.
     * Heartbeat announces a standby's remaining holdings before it stops the groups and its new holdings
     * after a takeover, so these times are within about 0.5 s of the real start/stop.
     */
    static List<Decision> realNode2Decisions() {
        List<Decision> out = new ArrayList<>();
        boolean holds = false;
        for (UdpDatagram d : capture.datagrams()) {
            if (!d.srcIp().equals(NODE2_IP)) {
                continue;
            }
            HaMessage m = decode(d);
            if (!m.type().orElse("").equals("resource")) {
                continue;
            }
            ResourceSet held = ResourceSet.fromWire(m.get(Field.RESOURCES_HELD).orElseThrow()).orElseThrow();
            boolean full = m.get(Field.RESOURCE_REPORT_TYPE).map("full"::equals).orElse(false);
            boolean now = full || held == ResourceSet.NONE ? held.includesForeign() : holds || held.includesForeign();
            if (now != holds) {
                out.add(new Decision(d.timestampMicros() - originMicros, now, LABSVC,
                        "frame " + d.frame() + ": resource rsc_hold=" + held.wireName()
                                + m.get(Field.INFO).map(i -> " info=" + i).orElse("")));
            }
            holds = now;
        }
        return out;
    }

    /**
     * Replays node1's datagrams from capture time {@code startMicros} on into our node2, started then,
     * and runs on to the capture's end. Generation and ACK trigger are arbitrary.
     */
    static CaptureReplay replay(long startMicros) {
        CaptureReplay r = new CaptureReplay(lifecycleConfig(), N2, realNode2Uuid(), 1, 7, originMicros, startMicros,
                GROUP_OP_MILLIS);
        UdpDatagram last = null;
        for (UdpDatagram d : capture.datagrams()) {
            if (d.srcIp().equals(NODE1_IP) && d.timestampMicros() - originMicros >= startMicros) {
                r.deliver(d, "eth1");
            }
            last = d;
        }
        r.advanceTo(last.timestampMicros() - originMicros);
        return r;
    }

    private static void assertMatchesExpected(List<Decision> decisions, String who, Object context) {
        assertThat(decisions).as("%s: decisions %s vs expected %s; %s", who, decisions, EXPECTED, context)
                .hasSameSizeAs(EXPECTED);
        for (int i = 0; i < EXPECTED.size(); i++) {
            Decision d = decisions.get(i);
            assertThat(EXPECTED.get(i).matches(d.start(), d.group(), d.atMicros()))
                    .as("%s decision %d: %s, expected %s; %s", who, i + 1, d, EXPECTED.get(i), context).isTrue();
        }
    }

    static List<Long> startTimes() {
        UdpDatagram firstOfNode2 = capture.datagrams().stream().filter(d -> d.srcIp().equals(NODE2_IP)).findFirst()
                .orElseThrow();
        return List.of(0L, firstOfNode2.timestampMicros() - originMicros);
    }

    @Test
    void theRealNode2MadeTheExpectedDecisions() {
        List<Decision> real = realNode2Decisions();
        assertMatchesExpected(real, "real node2", "");
        assertThat(real).extracting(d -> Math.round(d.atMicros() / 1000.0)) // ms since the first frame
                .containsExactly(24_039L, 38_005L, 55_518L, 71_004L);
    }

    /**
     * A real Heartbeat 3.0.6 peer sends no {@code jhb-config}. Our node2 sends its digest
     * after comm up and again when the real node1 restarts (its {@code starting} at about 70 s), logs no
     * mismatch, and says in status that the peer's config is unknown. (What the real node1 does with our
     * digest cannot be replayed: the capture predates it. Heartbeat drops unknown types, facts C.2.)
     */
    @Test
    void aRealHeartbeatPeerSendsNoDigestSoOurConfigStatusIsUnknown() {
        CaptureReplay r = replay(0);
        assertThat(r.engine().configStatus()).isEqualTo("unknown (node1 sent no digest \u2014 a Heartbeat 3.0.6 peer?)");
        assertThat(r.engine().peerConfigDigest()).isEmpty();
        List<Line> digests = r.sent().stream().filter(l -> l.text().startsWith("sent: t=jhb-config ")).toList();
        assertThat(digests).as("%s", r.sent()).hasSize(2);
        assertThat(digests.get(0).text()).matches("sent: t=jhb-config cfg_haresources=[0-9a-f]{64}"
                + " cfg_authkeys=[0-9a-f]{64} cfg_hacf=[0-9a-f]{64} cfg_groups=1 node1:[0-9a-f]{12}:[0-9a-f]{12}:labsvc"
                + " seq=[0-9a-f]+");
        assertThat(digests.get(1).atMicros()).isGreaterThan(68_420_000L);
        assertThat(r.logs()).noneMatch(l -> l.text().contains("Configuration") || l.text().contains("jhb-config"));
    }

    @Test
    void node1AddressesTheRealNode2ByItsUuid() {
        byte[] uuid = realNode2Uuid();
        List<byte[]> dest = capture.datagrams().stream().filter(d -> d.srcIp().equals(NODE1_IP)).map(d -> decode(d))
                .filter(m -> m.get(Field.DESTINATION).map("node2"::equals).orElse(false))
                .map(m -> m.getBinary(Field.DESTINATION_UUID).orElseThrow()).toList();
        assertThat(dest).as("node1's messages with dest=node2").hasSizeGreaterThan(10)
                .allSatisfy(u -> assertThat(u).isEqualTo(uuid));
    }

    /**
     * Our node2 starts either at capture time 0 (lifecycle-events.txt: "0.01 both nodes started") or when
     * the real node2 sent its first packet (frame 4, 0.987 s; node1's frames 1–3 at 0.000 s are then not
     * delivered, as the real node2 was not listening yet). The decisions must not depend on that.
     */
    @ParameterizedTest(name = "our node2 starts at capture time {0} µs")
    @MethodSource("startTimes")
    void ourNode2MakesTheRealNode2sDecisionsInOrderAndAtAboutTheSameTimes(long startMicros) {
        CaptureReplay r = replay(startMicros);
        String context = "our timeline:\n" + timeline(r);

        assertThat(r.engine().badPackets().total()).as(context).isZero();
        // (i) nothing before node1's standby; (ii)–(v) as the real node2, within the windows
        assertMatchesExpected(r.decisions(), "our node2", context);
        List<Decision> real = realNode2Decisions();
        for (int i = 0; i < real.size(); i++) {
            assertThat(Math.abs(r.decisions().get(i).atMicros() - real.get(i).atMicros()))
                    .as("decision %d: ours %s, the real node2's %s; %s", i + 1, r.decisions().get(i), real.get(i),
                            context)
                    .isLessThanOrEqualTo(1_000_000L);
        }

        // node1's last status 50.003 s, dt=1388 (5000 ms): dead at 55.003 s plus at most one 10 ms tick.
        // The real node2 acted about 0.5 s later (its stonith message is at 55.504 s).
        assertThat(logAt(r, l -> l.endsWith("node node1: is dead"))).as(context).isBetween(55.0, 55.2);
        assertThat(logAt(r, l -> l.endsWith("Heartbeat restart on node node1"))).as(context).isBetween(68.41, 68.43);
        assertThat(sentAt(r, s -> s.startsWith("t=stonith node=node1 result=n_stnth")))
                .as("like the real node2 (frame 178): node1 held labsvc when it died, no STONITH device; %s", context)
                .isBetween(55.0, 55.2);
        // the end (97.43 s): node1 runs labsvc again and says so (frame 224: rsc_hold=local isstable=1), node2 runs nothing
        assertThat(r.engine().machine().groupState(0)).isEqualTo(GroupState.STOPPED);
        assertThat(r.engine().machine().state()).isEqualTo(TakeoverState.STABLE);
        assertThat(r.engine().machine().peerHoldings()).isEqualTo(ResourceSet.LOCAL);
        assertThat(r.engine().detector().status(N1)).isEqualTo(NodeStatus.ACTIVE);
    }

    private static double logAt(CaptureReplay r, Predicate<String> p) {
        return seconds(r.logs().stream().filter(l -> p.test(l.text())).findFirst()
                .orElseThrow(() -> new AssertionError("no such log line in\n" + timeline(r))).atMicros());
    }

    private static double sentAt(CaptureReplay r, Predicate<String> p) {
        return seconds(r.sent().stream().filter(l -> p.test(l.text().substring("sent: ".length()))).findFirst()
                .orElseThrow(() -> new AssertionError("no such message sent in\n" + timeline(r))).atMicros());
    }

    /** Decisions, log lines and non-status messages of our node2, merged by time, for failure messages. */
    static String timeline(CaptureReplay r) {
        List<Line> all = new ArrayList<>(r.logs());
        r.sent().stream().filter(l -> !l.text().startsWith("sent: t=status") && !l.text().startsWith("sent: t=NS_"))
                .forEach(all::add);
        r.decisions().forEach(d -> all.add(new Line(d.atMicros(), "DECISION " + (d.start() ? "START " : "STOP ")
                + d.group() + " (" + d.reason() + ")")));
        all.sort(java.util.Comparator.comparingLong(Line::atMicros));
        StringBuilder sb = new StringBuilder();
        all.forEach(l -> sb.append(l).append('\n'));
        return sb.toString();
    }
}
