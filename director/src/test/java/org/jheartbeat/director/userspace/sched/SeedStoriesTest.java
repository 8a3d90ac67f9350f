package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.userspace.sched.ServiceScheduling.Connection;
import org.junit.jupiter.api.Test;

/** The seeds' three scheduler stories, replayed on the kernel-exact model with a fake clock. */
class SeedStoriesTest {

    /**
     * LBLC + persistence + one NAT'd client population: a proxy farm (three content-filter proxies,
     * ldirectord's default weight 1, persistent 300 s) behind one VIP. LBLC keys its table on the
     * packet's destination address, which is always the VIP, so there is one entry: every new
     * client goes to that entry's proxy until it is "overloaded" (active &gt; weight while some
     * proxy is below half its weight); once every proxy has one connection nobody is below half,
     * and the rest pile onto one proxy, frozen there by the persistence templates. LC, with the
     * same clients, balances.
     */
    @Test
    void lblcWithPersistenceEndsUnbalancedWhileLcBalances() {
        Map<String, Integer> lblc = clientsPerProxy("lblc");
        Map<String, Integer> lc = clientsPerProxy("lc");
        System.out.println("story 1: 90 clients, 4 connections each; clients per proxy: lblc " + lblc + ", lc " + lc);
        assertThat(lblc.values().stream().mapToInt(Integer::intValue).max().orElseThrow()).isGreaterThanOrEqualTo(80);
        assertEquals(Map.of("A", 30, "B", 30, "C", 30), lc);
    }

    private static Map<String, Integer> clientsPerProxy(String sched) {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, sched, 300, null, null, false), Tunables.DEFAULTS).add("C", "B", "A");
        Map<String, String> proxyOf = new TreeMap<>();
        for (int round = 0; round < 4; round++) {
            for (int client = 0; client < 90; client++) {
                String ip = Rig.client(client).getAddress().getHostAddress();
                String p = rig.pick(ip, 2000 + round);
                rig.open.get(rig.open.size() - 1).established();
                String before = proxyOf.putIfAbsent(ip, p);
                assertThat(before == null || before.equals(p)).as("persistence keeps " + ip + " on its proxy").isTrue();
            }
            rig.advance(30);
        }
        Map<String, Integer> n = new TreeMap<>();
        proxyOf.values().forEach(p -> n.merge(p, 1, Integer::sum));
        return n;
    }

    /**
     * WLC rejoin flood (seed 003): C's check flaps. With ldirectord's default quiescent=no the real
     * is deleted, its connections are lost and its clients reconnect to A and B; when C comes back
     * it has no connections and WLC sends it every new connection until it catches up. With
     * quiescent=yes C only goes to weight 0: its connections live on, and on return it gets only
     * its share (the run is at most the few connections it missed while quiesced).
     */
    @Test
    void wlcRejoinFloodAndItsQuiesceFix() {
        // deleted and re-added
        Rig del = threeServersWith100Each();
        List<Connection> onC = del.open.stream().filter(c -> c.real().equals(Rig.real("C"))).toList();
        del.svc.removeReal(Rig.real("C"));
        for (Connection c : onC) {
            c.closed(); // lost; each client reconnects
        }
        for (int i = 0; i < onC.size(); i++) {
            assertThat(del.connect(2000 + i)).isIn("A", "B");
        }
        del.advance(300); // TIME_WAIT over, C freed from the trash
        del.add("C");
        String after = del.connectAllNames(150);
        int floodRun = leadingRun(after, "C");
        // quiesced and restored
        Rig q = threeServersWith100Each();
        q.weight("C", 0);
        String during = q.connectAllNames(6);
        assertThat(during).doesNotContain("C");
        q.weight("C", 1);
        String back = q.connectAllNames(150);
        int quiesceRun = longestRun(back, "C");
        System.out.println("story 2: after rejoin C took the first " + floodRun + " of 150 new connections (deleted)"
                + " vs a longest run of " + quiesceRun + " (quiesced, 6 missed); C's share "
                + count(back, "C") + "/150");
        assertThat(floodRun).isGreaterThanOrEqualTo(150);
        assertThat(quiesceRun).isLessThanOrEqualTo(6 / 2 + 1);
        assertThat(count(back, "C")).isBetween(40, 60);
    }

    private static Rig threeServersWith100Each() {
        Rig rig = Rig.of("wlc").add("C", "B", "A");
        for (int i = 0; i < 300; i++) {
            rig.connect(i);
        }
        assertEquals(100, rig.active("A"));
        assertEquals(100, rig.active("C"));
        return rig;
    }

    private static int leadingRun(String picks, String name) {
        int n = 0;
        for (String p : picks.split(" ")) {
            if (!p.equals(name)) {
                break;
            }
            n++;
        }
        return n;
    }

    private static int longestRun(String picks, String name) {
        int best = 0;
        int run = 0;
        for (String p : picks.split(" ")) {
            run = p.equals(name) ? run + 1 : 0;
            best = Math.max(best, run);
        }
        return best;
    }

    private static int count(String picks, String name) {
        int n = 0;
        for (String p : picks.split(" ")) {
            n += p.equals(name) ? 1 : 0;
        }
        return n;
    }

    /** A quiescent (weight 0) server keeps its existing connections and gets no new ones. */
    @Test
    void quiescentServerKeepsExistingConnectionsAndGetsNoNewOnes() {
        for (String sched : new String[] {"rr", "wrr", "lc", "wlc", "sed", "nq", "fo", "ovf", "lblc", "lblcr"}) {
            Rig rig = Rig.of(sched).add("C=10", "B=10", "A=10");
            for (int i = 0; i < 30; i++) {
                rig.connect(i);
            }
            List<Connection> onA = new ArrayList<>(rig.open.stream().filter(c -> c.real().equals(Rig.real("A")))
                    .toList());
            long activeA = rig.active("A");
            assertThat(activeA).as(sched).isPositive();
            rig.weight("A", 0);
            for (int i = 100; i < 160; i++) {
                assertThat(rig.connect(i)).as(sched).isNotEqualTo("A");
            }
            assertEquals(activeA, rig.active("A"), sched + ": existing connections still counted");
            long inBefore = rig.svc.snapshot().reals().get(0).stats().inBytes();
            for (Connection c : onA) {
                c.transferred(1, 1, 1000, 1000);
            }
            assertEquals(inBefore + 1000L * onA.size(), rig.svc.snapshot().reals().get(0).stats().inBytes(), sched);
            rig.advance(600); // idle but well within ESTABLISHED's 900 s once refreshed
            assertEquals(activeA, rig.active("A"), sched);
            for (Connection c : onA) {
                c.closing();
                c.closed();
            }
            assertEquals(0, rig.active("A"), sched);
        }
    }
}
