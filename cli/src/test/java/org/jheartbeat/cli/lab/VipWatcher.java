package org.jheartbeat.cli.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Who holds the VIPs while a drill runs, from two sides. The servers': every 100 ms, for each VIP, reads node1's,
 * node2's and node1's local addresses again from {@code /proc/HOLDER/net/fib_trie} (the holder process lives in
 * the node's network namespace; a file read, no fork) and records a double hold when all three list it (a single
 * move between two reads, release before acquire, cannot make all three true; see {@link Lab#heldByBoth}). The
 * client's ARP view: per VIP, {@code arping -c 2 -w 1} from the client over and over (about one probe a second,
 * {@link VipWatch#arpOnce(Lab, String)}); two MACs answering one probe are two nodes holding the VIP. The nodes
 * must stay powered on while it runs (their holders are read once).
 */
final class VipWatcher {
    private final List<String> vips;
    private final Path fib1;
    private final Path fib2;
    private final List<String> doubles = new ArrayList<>();
    private volatile boolean running = true;
    private Thread thread;
    private final Lab lab;
    private final List<Thread> arpThreads = new ArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger arpProbes = new java.util.concurrent.atomic.AtomicInteger();

    VipWatcher(Lab lab, List<String> vips) throws IOException {
        this.lab = lab;
        this.vips = List.copyOf(vips);
        this.fib1 = fib(lab, "node1");
        this.fib2 = fib(lab, "node2");
    }

    private static Path fib(Lab lab, String node) throws IOException {
        String holder = Files.readString(lab.runDir().resolve(node).resolve("holder.pid")).strip();
        return Path.of("/proc", holder, "net", "fib_trie");
    }

    void start() {
        thread = new Thread(this::run, "vip watcher");
        thread.setDaemon(true);
        thread.start();
        for (String vip : vips) {
            Thread t = new Thread(() -> arpLoop(vip), "arp " + vip);
            t.setDaemon(true);
            t.start();
            arpThreads.add(t);
        }
    }

    private void arpLoop(String vip) {
        while (running) {
            try {
                java.util.Set<String> who = VipWatch.arpOnce(lab, vip);
                arpProbes.incrementAndGet();
                if (who.size() > 1) {
                    synchronized (doubles) {
                        doubles.add(vip + ": one ARP probe answered by " + who + " at " + System.nanoTime());
                    }
                }
                if (who.isEmpty()) {
                    Thread.sleep(200); // arping returned at once: do not spin
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                synchronized (doubles) {
                    doubles.add(vip + ": arping failed: " + e.getMessage());
                }
                return;
            }
        }
    }

    /** ARP probes answered or not so far, over all VIPs. */
    int arpProbes() {
        return arpProbes.get();
    }

    private void run() {
        while (running) {
            try {
                for (String vip : vips) {
                    if (MigrationSteps.local(Files.readString(fib1), vip) && MigrationSteps.local(Files.readString(fib2), vip)
                            && MigrationSteps.local(Files.readString(fib1), vip)) {
                        synchronized (doubles) {
                            doubles.add(vip + " held by node1 and node2 at " + System.nanoTime());
                        }
                    }
                }
                Thread.sleep(100);
            } catch (IOException e) {
                synchronized (doubles) {
                    doubles.add("cannot read the nodes' addresses: " + e.getMessage());
                }
                return;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    void stop() throws InterruptedException {
        running = false;
        if (thread != null) {
            thread.join(5_000);
        }
        for (Thread t : arpThreads) {
            t.join(15_000); // an arping lasts at most 1 s (Lab.run's own bound: 10 s)
        }
    }

    /** What was seen held twice (empty: never). */
    List<String> doubles() {
        synchronized (doubles) {
            return List.copyOf(doubles);
        }
    }
}
