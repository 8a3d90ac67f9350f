package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.userspace.sched.ServiceScheduling.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every scheduler driven by the same scripts on a fake clock and compared with the selection
 * rules of facts lvs.md §1: one hand-worked sequence with its expected picks per scheduler, the
 * rules' consequences for list order, weights, quiescence and changes, and seeded random scripts
 * (connections, establishes, closes, weight and threshold edits, adds and removes, time) checked
 * step by step against reference models written from the facts text.
 */
class SchedulerConformanceTest {
    static final String[] ALL = {"rr", "wrr", "lc", "wlc", "sed", "nq", "lblc", "lblcr", "dh", "sh", "mh", "fo", "ovf"};

    /**
     * Reals added C=2, B=3, A=4 (so the kernel's list is A, B, C); nine clients connect and
     * establish. Worked by hand from the rules (sh, dh, mh from an independent Python model of
     * hash_32 and hsiphash).
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "rr:A B C A B C A B C",
        "wrr:A B C A A B A B C",
        "lc:A B C A B C A B C",
        "wlc:A B C A B A C B A",
        "sed:A B A C B A A B C",
        "nq:A B C A B A A B C",
        "fo:A A A A A A A A A",
        "ovf:A A A A A B B B B",
        "lblc:A A A A A B B B B",
        "lblcr:A A A A A B B B B",
        "dh:A A A A A A A A A",
        "sh:B A C A A A B A A",
        "mh:B B B B A A B B A"})
    void sameScriptEveryScheduler(String line) {
        String sched = line.substring(0, line.indexOf(':'));
        Rig rig = Rig.of(sched).add("C=2", "B=3", "A=4");
        assertThat(rig.svc.listOrder()).extracting(Rig::name).containsExactly("A", "B", "C");
        StringBuilder got = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            got.append(rig.connect(i)).append(i < 8 ? " " : "");
        }
        assertEquals(line.substring(line.indexOf(':') + 1), got.toString(), sched);
    }

    /**
     * The facts' example A=4, B=3, C=2 → A A B A B C A B C is wrr's steady cycle. A service is
     * created empty ({@code ipvsadm -A}) and its reals added one by one, and each add runs the
     * change rule: adding C=2 gives di 2, mw 1, cw 1; B and A keep cw 1. So the first round is
     * the cw = 1 pass (A B C), then the cycle repeats exactly.
     */
    @Test
    void wrrExampleRepeatsAndHonoursGcd() {
        Rig rig = Rig.of("wrr").add("C=2", "B=3", "A=4");
        assertEquals("A B C", rig.picks(3, 0));
        assertEquals("A A B A B C A B C A A B A B C A B C", rig.picks(18, 10));
        Rig g = Rig.of("wrr").add("B=2", "A=4"); // di = 2, mw = 3; cw from the first add: 1
        assertEquals("A B", g.picks(2, 0));
        assertEquals("A A B A A B", g.picks(6, 10));
    }

    @Test
    void wrrChangeResetsCursorAndKeepsCurrentWeight() {
        Rig rig = Rig.of("wrr").add("C=2", "B=3", "A=4");
        assertEquals("A B C", rig.picks(3, 0)); // cursor on C, cw = 1
        rig.weight("C", 2); // any edit: cursor to the head, cw stays 1 (di = 1)
        assertEquals("A B C A A", rig.picks(5, 10)); // cursor on A, cw = 3
        rig.weight("A", 1); // max is now B = 3, mw = 3: cw (3) <= mw stays, cursor to the head
        assertEquals("B B C A", rig.picks(4, 20));
    }

    @Test
    void rrDeletingTheCursorMovesItToThePredecessor() {
        Rig rig = Rig.of("rr").add("C", "B", "A");
        assertEquals("A B", rig.picks(2, 0));
        rig.svc.removeReal(Rig.real("B")); // cursor → A
        assertEquals("C A C", rig.picks(3, 10));
        rig.add("D"); // new head: list D, A, C; cursor C → next is D
        assertEquals("D A C D", rig.picks(4, 20));
    }

    @Test
    void listOrderIsReverseInsertionAndDecidesTies() {
        for (String s : new String[] {"lc", "wlc", "sed", "nq", "fo", "ovf", "rr", "wrr", "lblc", "lblcr"}) {
            Rig rig = Rig.of(s).add("A", "B", "C");
            assertThat(rig.svc.listOrder()).extracting(Rig::name).as(s).containsExactly("C", "B", "A");
            assertEquals("C", rig.pick(0), s);
        }
    }

    @Test
    void lcCountsInactiveAsOneAndActiveAs256() {
        Rig rig = Rig.of("lc").add("B", "A"); // list A, B
        rig.connect(0); // A: 1 active (256)
        for (int i = 1; i <= 256; i++) {
            assertEquals("B", rig.pick(i)); // B: i inactive (not established)
        }
        assertEquals("A", rig.pick(300), "256 inactive on B tie with 1 active on A: first in list wins");
        assertEquals(1, rig.active("A"));
        assertEquals(1, rig.inactive("A"));
        assertEquals(256, rig.inactive("B"));
    }

    @Test
    void quiescedDestinationPerScheduler() {
        // rr wrr lc wlc sed nq fo ovf lblc lblcr: never chosen, the others take the load
        for (String s : new String[] {"rr", "wrr", "lc", "wlc", "sed", "nq", "fo", "ovf", "lblc", "lblcr"}) {
            Rig rig = Rig.of(s).add("C=20", "B=20", "A=20");
            rig.connect(0);
            rig.weight("A", 0);
            for (int i = 1; i < 30; i++) {
                assertThat(rig.connect(i)).as(s).isIn("B", "C");
            }
        }
        // dh: the one VIP's bucket owner quiesced → refused
        Rig dh = Rig.of("dh").add("C=2", "B=3", "A=4");
        assertEquals("A", dh.pick(0));
        dh.weight("A", 0);
        assertEquals("-", dh.pick(1));
        dh.weight("A", 4); // dh is not rebuilt on edits: A owns its bucket again
        assertEquals("A", dh.pick(2));
    }

    @Test
    void shRebuildsOnWeightEditAndFallsBackOnlyWithTheFlag() {
        Rig plain = Rig.of("sh").add("C=2", "B=3", "A=4");
        Hashing table = (Hashing) plain.svc.scheduler();
        Dest[] before = table.table();
        plain.weight("B", 0); // rebuilt: B keeps one bucket per cycle
        Dest[] after = table.table();
        assertThat(after).isNotEqualTo(before);
        int bBuckets = 0;
        for (Dest d : after) {
            bBuckets += Rig.name(d.address).equals("B") ? 1 : 0;
        }
        assertThat(bBuckets).isEqualTo(256 / 7 + (256 % 7 >= 5 ? 1 : 0)); // cycle A×4 B×1 C×2
        int refused = 0;
        int served = 0;
        Rig fb = new Rig(Rig.spec(Protocol.TCP, "sh", null, null, "sh-fallback", false), Tunables.DEFAULTS)
                .add("C=2", "B=3", "A=4");
        fb.weight("B", 0);
        for (int i = 0; i < 200; i++) {
            String p = plain.pick(i);
            String f = fb.pick(i);
            if (p.equals("-")) {
                refused++;
                assertThat(f).isIn("A", "C");
            } else {
                served++;
                assertEquals(p, f);
            }
        }
        assertThat(refused).isPositive();
        assertThat(served).isPositive();
    }

    @Test
    void shPortFlagMixesTheClientPort() {
        Rig byAddr = Rig.of("sh").add("C", "B", "A");
        Rig byPort = new Rig(Rig.spec(Protocol.TCP, "sh", null, null, "sh-port", false), Tunables.DEFAULTS)
                .add("C", "B", "A");
        InetAddress client = Rig.addr("198.18.70.7");
        java.util.Set<String> a = new java.util.HashSet<>();
        java.util.Set<String> p = new java.util.HashSet<>();
        for (int port = 1024; port < 1064; port++) {
            a.add(byAddr.pick(new InetSocketAddress(client, port)));
            p.add(byPort.pick(new InetSocketAddress(client, port)));
        }
        assertThat(a).hasSize(1);
        assertThat(p).hasSize(3);
    }

    @Test
    void mhSlotsFollowWeightsAndSurviveQuiescing() {
        Rig rig = Rig.of("mh").add("C=2", "B=3", "A=4");
        Hashing mh = (Hashing) rig.svc.scheduler();
        Map<String, Integer> slots = slotCounts(mh.table());
        assertEquals(Map.of("A", 1820, "B", 1365, "C", 908), slots); // independent Python model
        rig.weight("B", 0); // rebuilt from last_weight: nothing moves
        assertEquals(slots, slotCounts(mh.table()));
        int refused = 0;
        for (int i = 0; i < 100; i++) {
            String p = rig.pick(i);
            assertThat(p).isNotEqualTo("B");
            refused += p.equals("-") ? 1 : 0;
        }
        assertThat(refused).isPositive();
        Rig fb = new Rig(Rig.spec(Protocol.TCP, "mh", null, null, "mh-fallback", false), Tunables.DEFAULTS)
                .add("C=2", "B=3", "A=4");
        fb.weight("B", 0);
        for (int i = 0; i < 100; i++) {
            assertThat(fb.pick(i)).isIn("A", "C");
        }
        rig.svc.addReal(Rig.realSpec("D", 0, 0, 0)); // added with weight 0: no slots
        assertThat(slotCounts(mh.table())).doesNotContainKey("D");
    }

    private static Map<String, Integer> slotCounts(Dest[] t) {
        Map<String, Integer> m = new HashMap<>();
        for (Dest d : t) {
            m.merge(Rig.name(d.address), 1, Integer::sum);
        }
        return m;
    }

    @Test
    void lblcrDropsTheMostLoadedMemberAfterTheExpiration() {
        Tunables t = new Tunables(false, false, 900, 120, 300, 86_400, 60);
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "lblcr", null, null, null, false), t).add("B", "A");
        // weight 1: A takes 2 active, then is "overloaded" while B is idle → B joins the set
        assertEquals("A A B", rig.connectAll(3));
        assertEquals("B", rig.connectAll(1)); // set {B, A}: wlc min is B (1 active vs 2)
        rig.now += 61 * Rig.S; // set unchanged for more than lblcr_expiration
        // A (2 active) and B (2 active) tie on load: the first most-loaded, B (newest), is dropped
        assertEquals("B", rig.connectAll(1)); // min computed before the drop
        assertEquals("A", rig.connectAll(1)); // set {A}: A has 2 > 1 active but no one is below half
    }

    @Test
    void overloadFlagFromThresholds() {
        Rig rig = Rig.of("wlc");
        rig.svc.addReal(Rig.realSpec("B", 1, 0, 0));
        rig.svc.addReal(Rig.realSpec("A", 1, 4, 0)); // upper 4, no lower: cleared below 3/4
        List<Connection> toA = new ArrayList<>();
        for (int i = 0; i < 20 && toA.size() < 4; i++) {
            if (rig.pick(i).equals("A")) {
                toA.add(rig.open.get(rig.open.size() - 1));
            }
        }
        assertThat(rig.svc.overloaded(Rig.real("A"))).isTrue();
        for (int i = 100; i < 110; i++) {
            assertEquals("B", rig.pick(i));
        }
        toA.get(0).closed();
        rig.advance(11); // CLOSE (never established): 10 s
        assertThat(rig.svc.overloaded(Rig.real("A"))).as("3 of 4: not below 3/4 yet").isTrue();
        toA.get(1).closed();
        rig.advance(11);
        assertThat(rig.svc.overloaded(Rig.real("A"))).as("2*4 < 4*3").isFalse();
    }

    // ---------------------------------------------------------------- random scripts vs. reference models

    /** One destination as a reference model sees it. */
    record V(String name, int w, long act, long inact, boolean over) {
        long oh() {
            return act * 256 + inact;
        }

        boolean ok() {
            return !over && w > 0;
        }
    }

    interface Model {
        String expect(List<V> view, InetSocketAddress client);

        default void changed(String what, String name, int formerIndex, List<V> after) {
        }

        /** What the service chose for a client (mh remembers it). */
        default void saw(InetSocketAddress client, String real) {
        }
    }

    static List<V> view(IpvsService s) {
        Map<InetSocketAddress, TableReal> by = new HashMap<>();
        for (TableReal r : s.snapshot().reals()) {
            by.put(r.spec().endpoint().socketAddress(), r);
        }
        List<V> v = new ArrayList<>();
        for (InetSocketAddress a : s.listOrder()) {
            TableReal r = by.get(a);
            v.add(new V(Rig.name(a), r.spec().weight(), r.activeConns(), r.inactConns(), s.overloaded(a)));
        }
        return v;
    }

    static String n(V v) {
        return v == null ? "-" : v.name;
    }

    static V wlcRule(List<V> view) {
        V least = null;
        for (V d : view) {
            if (least == null) {
                least = d.ok() ? d : null;
            } else if (!d.over && least.oh() * d.w > d.oh() * least.w) {
                least = d;
            }
        }
        return least;
    }

    static boolean lblcOverloaded(V d, List<V> view) {
        return d.act > d.w && view.stream().anyMatch(m -> m.act * 2 < m.w);
    }

    static V byName(List<V> view, String name) {
        return view.stream().filter(v -> v.name.equals(name)).findFirst().orElse(null);
    }

    static Model model(String sched) {
        switch (sched) {
            case "lc":
                return (view, c) -> {
                    V least = null;
                    for (V d : view) {
                        if (d.ok() && (least == null || d.oh() < least.oh())) {
                            least = d;
                        }
                    }
                    return n(least);
                };
            case "wlc":
                return (view, c) -> n(wlcRule(view));
            case "sed":
            case "nq":
                return (view, c) -> {
                    V least = null;
                    for (V d : view) {
                        if (!d.ok()) {
                            continue;
                        }
                        if (sched.equals("nq") && d.act == 0) {
                            return d.name;
                        }
                        if (least == null || (least.act + 1) * d.w > (d.act + 1) * least.w) {
                            least = d;
                        }
                    }
                    return n(least);
                };
            case "fo":
                return (view, c) -> {
                    V best = null;
                    for (V d : view) {
                        if (!d.over && d.w > (best == null ? 0 : best.w)) {
                            best = d;
                        }
                    }
                    return n(best);
                };
            case "ovf":
                return (view, c) -> {
                    V best = null;
                    for (V d : view) {
                        if (d.ok() && d.act <= d.w && (best == null || d.w > best.w)) {
                            best = d;
                        }
                    }
                    return n(best);
                };
            case "rr":
                return new Model() {
                    String cursor;

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        int start = cursor == null ? -1 : view.indexOf(byName(view, cursor));
                        for (int k = 0; k < view.size(); k++) {
                            V d = view.get((start + 1 + k) % view.size());
                            if (d.ok()) {
                                cursor = d.name;
                                return d.name;
                            }
                        }
                        return "-";
                    }

                    @Override
                    public void changed(String what, String name, int formerIndex, List<V> after) {
                        if (what.equals("remove") && name.equals(cursor)) {
                            cursor = formerIndex == 0 ? null : after.get(formerIndex - 1).name;
                        }
                    }
                };
            case "wrr":
                return new Model() {
                    int cl = -1;
                    int cw;
                    int mw;
                    int di = 1;

                    void recompute(List<V> view) {
                        int g = 0;
                        int max = 0;
                        for (V d : view) {
                            if (d.w > 0) {
                                g = g == 0 ? d.w : java.math.BigInteger.valueOf(g).gcd(java.math.BigInteger.valueOf(d.w))
                                        .intValue();
                            }
                            max = Math.max(max, d.w);
                        }
                        di = g == 0 ? 1 : g;
                        mw = max - (di - 1);
                    }

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        if (mw == 0 || view.stream().noneMatch(V::ok)) {
                            return "-";
                        }
                        int i = cl;
                        while (true) {
                            i++;
                            if (i == view.size()) {
                                i = -1;
                                cw -= di;
                                if (cw <= 0) {
                                    cw = mw;
                                }
                            } else if (!view.get(i).over && view.get(i).w >= cw) {
                                cl = i;
                                return view.get(i).name;
                            }
                        }
                    }

                    @Override
                    public void changed(String what, String name, int formerIndex, List<V> after) {
                        cl = -1;
                        recompute(after);
                        if (cw > mw || cw == 0) {
                            cw = mw;
                        } else if (di > 1) {
                            cw = (cw / di) * di + 1;
                        }
                    }
                };
            case "lblc":
                return new Model() {
                    String cached;

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        V d = cached == null ? null : byName(view, cached);
                        if (d != null && d.w > 0 && !lblcOverloaded(d, view)) {
                            return d.name;
                        }
                        V w = wlcRule(view);
                        if (w != null) {
                            cached = w.name;
                        }
                        return n(w);
                    }
                };
            case "lblcr":
                return new Model() {
                    List<String> set;

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        if (set != null) {
                            V least = null;
                            for (String m : set) {
                                V d = byName(view, m);
                                if (d == null || d.over) {
                                    continue;
                                }
                                if (least == null) {
                                    least = d.w > 0 ? d : null;
                                } else if (least.oh() * d.w > d.oh() * least.w) {
                                    least = d;
                                }
                            }
                            if (least != null && !lblcOverloaded(least, view)) {
                                return least.name;
                            }
                        }
                        V w = wlcRule(view);
                        if (w == null) {
                            return "-";
                        }
                        if (set == null) {
                            set = new ArrayList<>();
                        }
                        if (!set.contains(w.name)) {
                            set.add(0, w.name);
                        }
                        return w.name;
                    }
                };
            case "dh":
            case "sh":
                return new Model() {
                    String[] table;

                    void fill(List<V> view) {
                        table = new String[256];
                        int p = 0;
                        int count = 0;
                        for (int i = 0; i < 256 && !view.isEmpty(); i++) {
                            table[i] = view.get(p).name;
                            if (sched.equals("dh") || ++count >= view.get(p).w) {
                                p = (p + 1) % view.size();
                                count = 0;
                            }
                        }
                    }

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        if (table == null) {
                            fill(view);
                        }
                        byte[] b = (sched.equals("dh") ? Rig.addr("198.18.0.100") : c.getAddress()).getAddress();
                        int v = (b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff);
                        String owner = table[(v * 0x61C88647) >>> 24];
                        V d = owner == null ? null : byName(view, owner);
                        return d != null && d.ok() ? d.name : "-";
                    }

                    @Override
                    public void changed(String what, String name, int formerIndex, List<V> after) {
                        if (sched.equals("sh") || !what.equals("edit")) {
                            fill(after);
                        }
                    }
                };
            case "mh":
                return new Model() {
                    final Map<InetAddress, String> seen = new HashMap<>();

                    @Override
                    public String expect(List<V> view, InetSocketAddress c) {
                        String before = seen.get(c.getAddress());
                        if (before != null) {
                            V d = byName(view, before);
                            return d != null && d.ok() ? before : "-";
                        }
                        return "?";
                    }

                    @Override
                    public void changed(String what, String name, int formerIndex, List<V> after) {
                        seen.clear();
                    }

                    @Override
                    public void saw(InetSocketAddress c, String r) {
                        if (!r.equals("-")) {
                            seen.put(c.getAddress(), r);
                        }
                    }
                };
            default:
                throw new IllegalArgumentException(sched);
        }
    }

    @Test
    void randomScriptsMatchTheReferenceModels() {
        int checked = 0;
        for (String sched : ALL) {
            for (int seed = 1; seed <= 4; seed++) {
                checked += runScript(sched, seed, seed % 3 == 0);
            }
        }
        System.out.println("conformance: " + checked + " scheduling decisions checked against the reference models");
    }

    private int runScript(String sched, long seed, boolean activeBeforeEstablished) {
        Random r = new Random(seed * 7919 + sched.hashCode());
        Rig rig = new Rig(Rig.spec(Protocol.TCP, sched, null, null, null, false),
                Tunables.DEFAULTS.withActiveBeforeEstablished(activeBeforeEstablished));
        Model m = model(sched);
        int nextReal = 1;
        for (int i = 0; i < 4; i++) {
            String name = "R" + (26 + nextReal++);
            rig.svc.addReal(Rig.realSpec(name, r.nextInt(5), 0, 0));
            m.changed("add", name, 0, view(rig.svc));
        }
        int port = 1024;
        int checked = 0;
        List<String> log = new ArrayList<>();
        for (int step = 0; step < 300; step++) {
            int op = r.nextInt(100);
            int at = step;
            java.util.function.Supplier<String> where = () -> sched + " seed " + seed + " step " + at + " "
                    + log.subList(Math.max(0, log.size() - 6), log.size());
            if (op < 55) {
                InetSocketAddress c = new InetSocketAddress(Rig.client(r.nextInt(80)).getAddress(), port++);
                List<V> before = view(rig.svc);
                String want = m.expect(before, c);
                String got = rig.pick(c);
                if (!want.equals("?")) {
                    assertEquals(want, got, () -> where.get() + " view " + before);
                } else {
                    V d = byName(before, got);
                    assertThat(got.equals("-") || (d != null && d.ok())).as(where.get()).isTrue();
                }
                m.saw(c, got);
                log.add("open→" + got);
                checked++;
            } else if (op < 70 && !rig.open.isEmpty()) {
                rig.open.get(r.nextInt(rig.open.size())).established();
                log.add("est");
            } else if (op < 80 && !rig.open.isEmpty()) {
                Connection c = rig.open.remove(r.nextInt(rig.open.size()));
                c.closing();
                c.closed();
                log.add("close");
            } else if (op < 85) {
                rig.advance(1 + r.nextInt(200));
                log.add("time");
            } else if (op < 92) {
                List<InetSocketAddress> listed = rig.svc.listOrder();
                String name = Rig.name(listed.get(r.nextInt(listed.size())));
                int w = r.nextInt(6);
                int upper = r.nextInt(5) == 0 ? 3 + r.nextInt(4) : 0;
                rig.svc.editReal(Rig.realSpec(name, w, upper, 0));
                m.changed("edit", name, -1, view(rig.svc));
                log.add("edit " + name + "=" + w + (upper > 0 ? " x" + upper : ""));
            } else if (op < 96) {
                List<InetSocketAddress> listed = rig.svc.listOrder();
                if (listed.size() > 1) {
                    int idx = r.nextInt(listed.size());
                    String name = Rig.name(listed.get(idx));
                    rig.svc.removeReal(listed.get(idx));
                    m.changed("remove", name, idx, view(rig.svc));
                    log.add("remove " + name);
                }
            } else {
                String name = "R" + (26 + nextReal++);
                rig.svc.addReal(Rig.realSpec(name, 1 + r.nextInt(4), 0, 0));
                m.changed("add", name, 0, view(rig.svc));
                log.add("add " + name);
            }
            assertCountersConsistent(rig, where);
        }
        return checked;
    }

    /** Property: ActiveConn + InActConn of the listed reals never exceed the live entries, never negative. */
    private static void assertCountersConsistent(Rig rig, java.util.function.Supplier<String> where) {
        long listed = 0;
        for (TableReal t : rig.svc.snapshot().reals()) {
            if (t.activeConns() < 0 || t.inactConns() < 0) {
                throw new AssertionError(where.get() + ": negative counter " + t);
            }
            listed += t.activeConns() + t.inactConns();
        }
        if (listed > rig.svc.entryCount()) {
            throw new AssertionError(where.get() + ": " + listed + " counted, " + rig.svc.entryCount() + " entries");
        }
    }

    @Test
    void propertyWeightZeroNeverChosenWithoutPersistence() {
        for (String sched : ALL) {
            Random r = new Random(sched.hashCode());
            for (int run = 0; run < 20; run++) {
                Rig rig = Rig.of(sched);
                Map<String, Integer> w = new LinkedHashMap<>();
                for (int i = 0; i < 5; i++) {
                    String name = String.valueOf((char) ('A' + i));
                    w.put(name, r.nextInt(3));
                    rig.add(name + "=" + w.get(name));
                }
                for (int i = 0; i < 60; i++) {
                    // a new client address and port each time: a known one would reuse its entry
                    String got = r.nextBoolean() ? rig.connect(run * 100 + i) : rig.pick(run * 100 + i);
                    if (!got.equals("-")) {
                        assertThat(w.get(got)).as(sched + " weights " + w).isPositive();
                    }
                    if (r.nextInt(10) == 0) {
                        String name = String.valueOf((char) ('A' + r.nextInt(5)));
                        w.put(name, r.nextInt(3));
                        rig.weight(name, w.get(name));
                    }
                }
            }
        }
    }

    @Test
    void propertyLcPicksMinimumOverheadFirstInListOnTies() {
        Random r = new Random(42);
        for (int run = 0; run < 200; run++) {
            Rig rig = Rig.of("lc").add("E", "D", "C", "B", "A");
            for (int i = 0; i < 40; i++) {
                List<V> before = view(rig.svc);
                long min = before.stream().filter(V::ok).mapToLong(V::oh).min().orElse(-1);
                String got = r.nextBoolean() ? rig.connect(i) : rig.pick(i);
                V first = before.stream().filter(v -> v.ok() && v.oh() == min).findFirst().orElseThrow();
                assertEquals(first.name, got);
            }
        }
    }

    @Test
    void unknownSchedulerOrFlagIsRefusedWithTheKernelsMessage() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Rig.of("twos"))
                .hasMessageContaining("Scheduler or persistence engine not found: 'twos'");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new Rig(Rig.spec(Protocol.TCP, "sh", null, null, "sh-bogus", false), Tunables.DEFAULTS))
                .hasMessageContaining("unknown scheduler flag 'sh-bogus'");
    }
}
