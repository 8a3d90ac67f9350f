package org.jheartbeat.director.userspace.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sender and the receiver over real UDP on loopback (127.0.0.1 the active director, 127.0.0.2 the
 * standby): a table of 10,000 templates arrives whole in the standby's file, a larger one goes out in
 * bounded rounds, and a stranger's datagram (from 127.0.0.3, even with the right key) changes nothing.
 * Prints the figures (datagrams, bytes, rounds and time until the file holds the whole table); the time is
 * not asserted, the bound only catches a hang.
 */
class TemplateLinkTest {
    @TempDir
    Path dir;

    @Test
    void aTableReachesTheStandbysFileAndAStrangerIsIgnored() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress("127.0.0.2", 0))) {
            port = probe.getLocalPort();
        }
        var active = TemplateSyncTest.addr("127.0.0.1");
        var standby = TemplateSyncTest.addr("127.0.0.2");
        Path file = dir.resolve("lvs-ldirectord.cf-127.0.0.2.templates");
        Clock wall = Clock.systemUTC();
        List<SyncEntry> table = TemplateSyncTest.table(10_000).stream()
                .map(e -> new SyncEntry(e.udp(), e.virtual(), new org.jheartbeat.director.userspace.sched.SyncedTemplate(
                        e.template().client(), e.template().real(), 600_000))).toList();
        try (TemplateReceiver receiver = new TemplateReceiver(new TemplateSync.Link(standby, Set.of(active)), port,
                TemplateSyncTest.KEY, Optional.empty(), file, wall);
             TemplateSender sender = new TemplateSender(new TemplateSync.Link(active, Set.of(standby)), port,
                     TemplateSyncTest.KEY, Optional.empty())) {
            Thread t = new Thread(receiver::run, "receiver");
            t.start();
            long t0 = System.nanoTime();
            int rounds = 0;
            while (TemplateTable.load(file, wall.millis()).size() < table.size()) {
                assertThat(System.nanoTime() - t0).as("the table to arrive").isLessThan(30_000_000_000L);
                sender.round(table);
                rounds++;
                Thread.sleep(200);
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            TemplateSender.Figures f = sender.figures();
            System.out.printf("10000 templates: %d rounds, %d datagrams, %d bytes (%.1f bytes per template and"
                    + " round), %d dropped; in the standby's file after %d ms%n", rounds, f.datagrams(), f.bytes(),
                    f.bytes() / (double) rounds / table.size(), f.dropped(), ms);
            assertThat(f.datagrams()).isLessThanOrEqualTo((long) rounds * TemplateSender.MAX_DATAGRAMS_PER_ROUND);
            // a stranger on the link with a well-signed packet: not a syncpeer
            byte[] p = TemplateWire.encode(Optional.empty(), 1, List.of(TemplateSyncTest.entry(1, 1, 60_000)),
                    TemplateSyncTest.KEY).get(0);
            try (DatagramSocket stranger = new DatagramSocket(new InetSocketAddress("127.0.0.3", 0))) {
                stranger.send(new DatagramPacket(p, p.length, new InetSocketAddress(standby, port)));
            }
            long t1 = System.nanoTime();
            while (receiver.figures().bad() == 0) {
                assertThat(System.nanoTime() - t1).as("the stranger's datagram").isLessThan(10_000_000_000L);
                Thread.sleep(20);
            }
            assertThat(receiver.figures().lastBad()).isEqualTo("from 127.0.0.3, not a syncpeer");
            assertThat(receiver.figures().held()).isEqualTo(10_000);
            receiver.close();
            t.join(5_000);
        }
        assertThat(TemplateTable.load(file, wall.millis())).hasSize(10_000)
                .noneMatch(e -> e.template().client().getHostAddress().equals("198.18.64.1"));
    }
}
