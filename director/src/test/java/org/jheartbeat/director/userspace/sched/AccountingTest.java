package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jheartbeat.director.config.Protocol;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.table.Counters;
import org.jheartbeat.director.table.IpvsadmText;
import org.jheartbeat.director.table.ListView;
import org.jheartbeat.director.table.TableSnapshot;
import org.jheartbeat.director.userspace.sched.ServiceScheduling.Connection;
import org.jheartbeat.director.userspace.ServiceSchedulings;
import org.junit.jupiter.api.Test;

/**
 * Connection accounting (ActiveConn/InActConn, TCP and UDP state timeouts, reuse, one-packet
 * scheduling), persistence templates and their lifetime rules, the deleted-destination trash, and
 * the --stats/--rate counters, on a fake clock (facts lvs.md §1.0, §2; kernel ip_vs_est.c).
 */
class AccountingTest {
    private static final long S = Rig.S;

    @Test
    void tcpEntryIsInactiveUntilEstablishedThenFinWaitTimeWaitAndExpiry() {
        Rig rig = Rig.of("wlc").add("A");
        rig.pick(0);
        Connection c = rig.open.get(0);
        assertEquals(0, rig.active("A"));
        assertEquals(1, rig.inactive("A"));
        assertEquals("SYN_RECV", rig.svc.connections().get(0).state());
        assertEquals(60, rig.svc.connections().get(0).expireSeconds());
        c.established();
        assertEquals(1, rig.active("A"));
        assertEquals(0, rig.inactive("A"));
        assertEquals(900, rig.svc.connections().get(0).expireSeconds());
        rig.advance(500);
        c.transferred(1, 1, 100, 100); // every packet re-arms the entry's timer
        assertEquals(900, rig.svc.connections().get(0).expireSeconds());
        c.closing();
        assertEquals(0, rig.active("A"));
        assertEquals(1, rig.inactive("A"));
        assertEquals("FIN_WAIT", rig.svc.connections().get(0).state());
        assertEquals(120, rig.svc.connections().get(0).expireSeconds());
        c.closed();
        assertEquals("TIME_WAIT", rig.svc.connections().get(0).state());
        rig.advance(119);
        assertEquals(1, rig.inactive("A"));
        rig.advance(1);
        assertEquals(0, rig.inactive("A"));
        assertThat(rig.svc.connections()).isEmpty();
        c.established(); // a late call on an expired entry changes nothing
        assertEquals(0, rig.active("A"));
    }

    @Test
    void timeoutsOfSynRecvCloseAndEstablished() {
        Rig rig = Rig.of("wlc").add("A");
        rig.pick(0); // SYN_RECV, 60 s
        rig.pick(1);
        rig.open.get(1).closed(); // refused by the real before establishing: CLOSE, 10 s
        rig.connect(2); // ESTABLISHED, 900 s
        rig.advance(10);
        assertEquals(2, rig.svc.connections().size());
        rig.advance(50);
        assertEquals(1, rig.svc.connections().size());
        assertEquals(1, rig.active("A"));
        rig.advance(840);
        assertThat(rig.svc.connections()).isEmpty();
        assertEquals(0, rig.active("A"));
    }

    @Test
    void currentKernelsCountPreEstablishedStatesActive() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "wlc", null, null, null, false),
                Tunables.DEFAULTS.withActiveBeforeEstablished(true)).add("A");
        rig.pick(0);
        assertEquals(1, rig.active("A"));
        rig.open.get(0).closed();
        assertEquals(0, rig.active("A"));
        assertEquals(1, rig.inactive("A"));
    }

    @Test
    void udpIsAlwaysInactiveAndAKnownFlowReusesItsEntry() {
        Rig rig = new Rig(Rig.spec(Protocol.UDP, "rr", null, null, null, false), Tunables.DEFAULTS).add("B", "A");
        assertEquals("A", rig.pick(0));
        rig.open.get(0).established();
        assertEquals(0, rig.active("A"));
        assertEquals(1, rig.inactive("A"));
        assertEquals("UDP", rig.svc.connections().get(0).state());
        assertEquals(300, rig.svc.connections().get(0).expireSeconds());
        rig.advance(200);
        assertEquals("A", rig.pick(0), "the same client address and port: same entry, no scheduling");
        assertEquals(1, rig.svc.snapshot().stats().conns());
        assertEquals("B", rig.pick(1));
        rig.advance(299);
        assertEquals(1, rig.inactive("A"));
        rig.advance(1);
        assertEquals(0, rig.inactive("A"));
    }

    @Test
    void onePacketSchedulingKeepsNoEntry() {
        Rig rig = new Rig(Rig.spec(Protocol.UDP, "rr", null, null, null, true), Tunables.DEFAULTS).add("B", "A");
        assertEquals("A B A B", rig.picks(2, 0) + " " + rig.picks(2, 0));
        assertThat(rig.svc.connections()).isEmpty();
        assertEquals(0, rig.inactive("A"));
        assertEquals(4, rig.svc.snapshot().stats().conns());
    }

    @Test
    void tcpReuseOfAClientPortInTimeWaitIsScheduledAfresh() {
        Rig rig = Rig.of("rr").add("B", "A");
        assertEquals("A", rig.connect(0));
        rig.open.get(0).closing();
        rig.open.get(0).closed();
        assertEquals("B", rig.pick(0), "TIME_WAIT entry expired at once, new scheduling");
        assertEquals(0, rig.inactive("A"));
        rig.open.get(1).closed(); // CLOSE, not TIME_WAIT: a new SYN reuses the entry
        assertEquals("B", rig.pick(0));
        assertEquals(1, rig.inactive("B"));
        rig.open.get(1).established(); // the old handle is stale
        assertEquals(0, rig.active("B"));
    }

    @Test
    void persistenceKeepsAClientOnItsRealAndCountsPersistConn() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "rr", 300, null, null, false), Tunables.DEFAULTS).add("C", "B", "A");
        assertEquals("A", rig.connect(0));
        assertEquals("B", rig.connect(1));
        for (int i = 0; i < 5; i++) {
            assertEquals("A", rig.pick(Rig.client(0).getAddress().getHostAddress(), 2000 + i));
        }
        assertEquals(1, rig.svc.persistConns(Rig.real("A")));
        List<ConnectionEntry> t = rig.svc.connections().stream().filter(e -> e.source().endsWith(":0")).toList();
        assertEquals(2, t.size());
        assertEquals("198.18.64.1:0", t.get(0).source());
        assertEquals("ASSURED", t.get(0).state());
        assertEquals(300, t.get(0).expireSeconds());
    }

    @Test
    void netmaskGroupsClientsUnderOneTemplate() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "rr", 300, "255.255.255.0", null, false), Tunables.DEFAULTS)
                .add("B", "A");
        for (int i = 0; i < 6; i++) {
            assertEquals("A", rig.pick(i)); // 198.18.64.1 .. .6: one /24
        }
        assertEquals("B", rig.pick(250)); // 198.18.65.1
        assertEquals(1, rig.svc.persistConns(Rig.real("A")));
        assertThat(rig.svc.connections()).anyMatch(e -> e.source().equals("198.18.64.0:0"));
    }

    /**
     * Facts §2.3: the template's timer is re-armed to its timeout by each new connection; when it
     * fires while connections it controls live, it is kept 60 s more and its timeout becomes 60 s.
     */
    @Test
    void templateLifetimeRules() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "rr", 300, null, null, false), Tunables.DEFAULTS).add("B", "A");
        assertEquals("A", rig.connect(0));
        Connection first = rig.open.get(0);
        rig.advance(200);
        assertEquals("A", rig.pick("198.18.64.1", 3000)); // re-arms the template: 300 s from now
        assertEquals(300, template(rig).expireSeconds());
        rig.open.get(1).closed(); // CLOSE, 10 s
        rig.advance(300); // template due, the first connection still lives: kept 60 s
        assertEquals(60, template(rig).expireSeconds());
        assertEquals("A", rig.pick("198.18.64.1", 3001)); // re-armed to 60 s now, not 300
        assertEquals(60, template(rig).expireSeconds());
        rig.open.get(2).closed();
        first.closing();
        first.closed(); // TIME_WAIT 120 s
        rig.advance(60); // due again, still controls the TIME_WAIT entry: another 60 s
        assertEquals(60, template(rig).expireSeconds());
        rig.advance(60); // TIME_WAIT gone and template due in the same pass
        assertThat(rig.svc.connections()).isEmpty();
        assertEquals(0, rig.svc.persistConns(Rig.real("A")));
        assertEquals("B", rig.pick(0), "no template: scheduled afresh (rr moves on)");
    }

    @Test
    void templateOfADeletedRealIsInvalidatedAndKeptUntilItExpires() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "rr", 300, null, null, false), Tunables.DEFAULTS).add("B", "A");
        assertEquals("A", rig.connect(0));
        rig.svc.removeReal(Rig.real("A"));
        assertEquals("B", rig.connect(1000 + 0)); // another client
        assertEquals("B", rig.pick("198.18.64.1", 5000), "client 0's template is invalid: rescheduled");
        assertThat(rig.svc.connections()).anyMatch(e -> e.source().equals("198.18.64.1:0")
                && e.virtual().equals("198.18.0.100:65535") && e.destination().equals("198.18.1.1:65535"));
        assertEquals(1, rig.open.stream().filter(c -> c.real().equals(Rig.real("A"))).count());
    }

    @Test
    void quiescedRealKeepsKnownPersistentClientsUnlessExpireQuiescentTemplate() {
        for (boolean expireQuiescent : new boolean[] {false, true}) {
            Rig rig = new Rig(Rig.spec(Protocol.TCP, "wlc", 300, null, null, false),
                    Tunables.DEFAULTS.withExpireQuiescentTemplate(expireQuiescent)).add("B", "A");
            assertEquals("A", rig.connect(0));
            rig.weight("A", 0);
            assertEquals(expireQuiescent ? "B" : "A", rig.pick("198.18.64.1", 6000));
            assertEquals("B", rig.pick(7));
        }
    }

    @Test
    void deletedRealKeepsItsConnectionsCountedAndIsResurrectedFromTheTrash() {
        Rig rig = Rig.of("wlc").add("B", "A");
        rig.connect(0); // A
        rig.connect(1); // B
        rig.connect(2); // A
        rig.svc.removeReal(Rig.real("A"));
        assertThat(rig.counts()).containsOnlyKeys("B");
        assertThat(rig.svc.connections()).hasSize(3);
        rig.add("A"); // back within the trash period: its two connections are counted again
        assertEquals(2, rig.active("A"));
        rig.svc.removeReal(Rig.real("A"));
        rig.open.get(0).closed();
        rig.open.get(2).closed();
        rig.advance(120); // TIME_WAIT over
        rig.advance(121); // idle in the trash for the trash period: freed
        rig.add("A");
        assertEquals(0, rig.active("A"));
        assertEquals(0, rig.inactive("A"));
    }

    @Test
    void statsAndRateAsTheKernelsEstimator() {
        Rig rig = Rig.of("rr").add("B", "A");
        for (int i = 0; i < 10; i++) {
            rig.connect(i);
            rig.open.get(i).transferred(3, 2, 300, 2000);
        }
        // first estimator run 2 s after creation: each rate += (delta << 9 or << 4 - rate) >> 2
        rig.advance(2);
        Counters svcRate = rig.svc.snapshot().rate();
        assertEquals(new Counters(kernelRate(10, 9, 10), kernelRate(30, 9, 10), kernelRate(20, 9, 10),
                kernelRate(3000, 4, 5), kernelRate(20000, 4, 5)), svcRate);
        assertEquals(new Counters(10, 30, 20, 3000, 20000), rig.svc.snapshot().stats());
        Counters a = rig.svc.snapshot().reals().get(0).stats();
        assertEquals(new Counters(5, 15, 10, 1500, 10000), a);
        // a steady 5 connections/s converges to CPS 5
        for (int t = 0; t < 40; t++) {
            for (int i = 0; i < 10; i++) {
                rig.pick(10_000 + t * 10 + i);
            }
            rig.advance(2);
        }
        assertEquals(5, rig.svc.snapshot().rate().conns());
        System.out.println(IpvsadmText.list(new TableSnapshot(List.of(rig.svc.snapshot()), List.of()), ListView.RATE));
    }

    private static long kernelRate(long delta, int shift, int readShift) {
        long avg = ((delta << shift) - 0) >> 2;
        return (avg + (readShift == 10 ? 0x1FF : 0xF)) >> readShift;
    }

    @Test
    void snapshotAndConnectionsPrintAsIpvsadm() {
        Rig rig = new Rig(Rig.spec(Protocol.TCP, "wrr", 300, null, null, false), Tunables.DEFAULTS).add("B=2", "A=3");
        rig.connect(0);
        rig.pick(1);
        TableSnapshot t = new TableSnapshot(List.of(rig.svc.snapshot()), rig.svc.connections());
        String list = IpvsadmText.list(t, ListView.DEFAULT);
        assertThat(list).contains("TCP  198.18.0.100:80 wrr persistent 300\n"
                + "  -> 198.18.1.1:80                Masq    3      1          0         \n"
                + "  -> 198.18.1.2:80                Masq    2      0          1         \n");
        String conns = IpvsadmText.connections(t);
        assertThat(conns).contains("TCP 15:00  ESTABLISHED 198.18.64.1:40000  198.18.0.100:80    198.18.1.1:80");
        assertThat(conns).contains("TCP 05:00  ASSURED     198.18.64.1:0      198.18.0.100:80    198.18.1.1:80");
        assertThat(conns).contains("TCP 01:00  SYN_RECV    198.18.64.2:40001  198.18.0.100:80    198.18.1.2:80");
    }

    @Test
    void factoryAndEditsCheckTheirInput() {
        var s = ServiceSchedulings.create(Rig.spec(Protocol.TCP, "wlc", null, null, null, false), () -> 0L);
        s.addReal(Rig.realSpec("A", 1, 0, 0));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.addReal(Rig.realSpec("A", 1, 0, 0)))
                .hasMessageContaining("Destination already exists: 198.18.1.1:80");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.editReal(Rig.realSpec("B", 1, 0, 0)))
                .hasMessageContaining("No such destination");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.removeReal(Rig.real("B")))
                .hasMessageContaining("No such destination");
        s.update(Rig.spec(Protocol.TCP, "rr", null, null, null, false));
        assertEquals("rr", s.snapshot().spec().scheduler());
        assertThat(s.open(Rig.client(1))).map(c -> c.real()).contains(Rig.real("A"));
    }

    private static ConnectionEntry template(Rig rig) {
        return rig.svc.connections().stream().filter(e -> e.source().endsWith(":0")).findFirst().orElseThrow();
    }
}
