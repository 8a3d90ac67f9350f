package org.jheartbeat.cli.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The servers' side of a drill: every 100 ms, for each VIP, reads node1's, node2's and node1's local addresses
 * again from {@code /proc/HOLDER/net/fib_trie} (the holder process lives in the node's network namespace; a
 * file read, no fork) and records a double hold when all three list it (a single move between two reads,
 * release before acquire, cannot make all three true; see {@link Lab#heldByBoth}). The nodes must stay
 * powered on while it runs (their holders are read once).
 */
final class VipWatcher {
    private final List<String> vips;
    private final Path fib1;
    private final Path fib2;
    private final List<String> doubles = new ArrayList<>();
    private volatile boolean running = true;
    private Thread thread;

    VipWatcher(Lab lab, List<String> vips) throws IOException {
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
    }

    /** What was seen held twice (empty: never). */
    List<String> doubles() {
        synchronized (doubles) {
            return List.copyOf(doubles);
        }
    }
}
