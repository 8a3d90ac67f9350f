package org.jheartbeat.director.userspace.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.table.ConnectionEntry;
import org.jheartbeat.director.userspace.sched.ServiceScheduling.Connection;
import org.junit.jupiter.api.Test;

/**
 * The model's connection entries expire from ordered lanes (one per state), not from a scan of all entries:
 * entries of one state go in the order they were armed, traffic moves an entry to the back, a state change
 * moves it to its new state's timeout, and the counters are the same as the kernel's (facts lvs.md §1.0).
 */
class EntryExpiryTest {

    static List<String> sources(Rig rig) {
        return rig.svc.connections().stream().map(ConnectionEntry::source).toList();
    }

    static String src(int client) {
        java.net.InetSocketAddress a = Rig.client(client);
        return new Endpoint(a.getAddress(), a.getPort()).toString();
    }

    @Test
    void entriesOfOneStateExpireInTheOrderTheyWereArmedTrafficMovesOneBack() {
        Rig rig = Rig.of("rr").add("A", "B");
        rig.pick(1); // SYN_RECV, 60 s: expires at 60
        rig.advance(1);
        rig.pick(2); // at 61
        rig.advance(1);
        rig.pick(3); // at 62
        rig.advance(1);
        Connection first = rig.open.get(0);
        first.transferred(1, 0, 10, 0); // a packet re-arms it: at 63
        assertEquals(3, rig.svc.entryCount());
        rig.advance(57); // t = 60
        assertEquals(3, rig.svc.entryCount());
        rig.advance(1); // 61: client 2's
        assertThat(sources(rig)).containsExactly(src(1), src(3));
        rig.advance(1); // 62: client 3's
        assertThat(sources(rig)).containsExactly(src(1));
        assertEquals(1, rig.inactive("A") + rig.inactive("B"));
        rig.advance(1); // 63: client 1's, re-armed
        assertThat(sources(rig)).isEmpty();
        assertEquals(0, rig.inactive("A") + rig.inactive("B"));
    }

    @Test
    void aStateChangeMovesTheEntryToItsNewTimeoutAndAReusedEntryIsNotExpiredTwice() {
        Rig rig = Rig.of("rr").add("A");
        rig.connect(1); // ESTABLISHED, 900 s
        rig.pick(2); // SYN_RECV, 60 s
        Connection one = rig.open.get(0);
        one.closing(); // FIN_WAIT, 120 s
        one.closed(); // TIME_WAIT, 120 s
        rig.advance(60);
        assertThat(sources(rig)).containsExactly(src(1));
        assertEquals(1, rig.inactive("A"));
        // client 1 connects again from the same port: its TIME_WAIT entry is dropped, a new one scheduled
        rig.connect(1);
        assertEquals(1, rig.active("A"));
        assertEquals(0, rig.inactive("A"));
        rig.advance(60); // the old entry's deadline (120) passes: it is gone already, the new one stays
        assertEquals(1, rig.active("A"));
        assertThat(sources(rig)).containsExactly(src(1));
        rig.advance(840); // 900 s after the new one was established
        assertThat(sources(rig)).isEmpty();
        assertEquals(0, rig.active("A"));
        assertEquals(0, rig.svc.entryCount());
    }

    @Test
    void manyEntriesExpireTogetherWithTheirCounts() {
        Rig rig = Rig.of("wlc").add("A", "B", "C");
        for (int i = 0; i < 3_000; i++) {
            rig.connect(i);
            rig.open.get(i).closing();
            rig.open.get(i).closed(); // TIME_WAIT, 120 s
            if (i % 1000 == 999) {
                rig.advance(10);
            }
        }
        assertEquals(3_000, rig.svc.entryCount());
        assertEquals(3_000, rig.inactive("A") + rig.inactive("B") + rig.inactive("C"));
        rig.advance(90); // the first thousand's 120 s
        assertEquals(2_000, rig.svc.entryCount());
        rig.advance(20);
        assertEquals(0, rig.svc.entryCount());
        assertEquals(0, rig.inactive("A") + rig.inactive("B") + rig.inactive("C"));
        assertEquals(3_000, rig.svc.snapshot().stats().conns());
    }
}
