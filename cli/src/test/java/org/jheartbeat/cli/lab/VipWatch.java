package org.jheartbeat.cli.lab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Watches who serves a VIP, the whole time a fault drill runs, from two sides:
 * <ul>
 * <li>the client's ARP view: {@code arping -c 2 -w 1 -I eth0 VIP} in the client namespace, over and
 * over (about one probe a second); every MAC that answers one probe is recorded. Two different MACs
 * answering the same probe means two nodes serve the VIP (a node's kernel answers ARP for an address
 * it holds, even while all its processes are stopped);</li>
 * <li>the address view: {@link Lab#heldByBoth} on the two node namespaces, about every 100 ms.</li>
 * </ul>
 * The lab's fixed MACs ({@code 02:00:c6:12:00:0N}, lab/README.md) name the node: {@code …:01} is
 * node1's eth0.
 */
final class VipWatch implements AutoCloseable {
    private static final Pattern MAC = Pattern.compile("\\[([0-9A-Fa-f:]{17})\\]");

    private final Lab lab;
    private final String vip;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicInteger arpSamples = new AtomicInteger();
    private final AtomicInteger addrSamples = new AtomicInteger();
    private final List<String> doubles = Collections.synchronizedList(new ArrayList<>());
    private final List<String> arpHistory = Collections.synchronizedList(new ArrayList<>());
    private final long t0 = System.nanoTime();
    private final Thread arp;
    private final Thread addr;

    /** Starts both samplers on {@code vip}. */
    VipWatch(Lab lab, String vip) {
        this.lab = lab;
        this.vip = vip;
        this.arp = new Thread(this::arpLoop, "arp-watch");
        this.addr = new Thread(this::addrLoop, "addr-watch");
        arp.setDaemon(true);
        addr.setDaemon(true);
        arp.start();
        addr.start();
    }

    private long ms() {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    /** The node names whose eth0 MAC answered one {@code arping} (empty: nobody answered). */
    Set<String> arpOnce() throws Exception {
        return arpOnce(lab, vip);
    }

    /** The node names whose eth0 MAC answered one {@code arping} for {@code vip} from {@code lab}'s client. */
    static Set<String> arpOnce(Lab lab, String vip) throws Exception {
        Lab.Result r = lab.run(List.of("ip", "netns", "exec", lab.clientNamespace(), "arping", "-c", "2", "-w", "1",
                "-I", "eth0", vip), 10);
        Set<String> who = new TreeSet<>();
        Matcher m = MAC.matcher(r.output());
        while (m.find()) {
            String mac = m.group(1).toLowerCase();
            who.add(mac.endsWith(":00:01") ? "node1" : mac.endsWith(":00:02") ? "node2" : mac);
        }
        return who;
    }

    private void arpLoop() {
        String last = null;
        while (running.get()) {
            try {
                Set<String> who = arpOnce();
                arpSamples.incrementAndGet();
                String now = who.isEmpty() ? "none" : String.join("+", who);
                if (who.size() > 1) {
                    doubles.add(ms() + " ms: ARP answered by " + now);
                }
                if (!now.equals(last)) {
                    arpHistory.add(now);
                    last = now;
                }
                if (who.isEmpty()) {
                    Thread.sleep(200); // arping returned at once (e.g. no route): do not spin
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                doubles.add(ms() + " ms: arping failed: " + e.getMessage());
            }
        }
    }

    private void addrLoop() {
        while (running.get()) {
            try {
                if (lab.heldByBoth(vip)) {
                    doubles.add(ms() + " ms: ip addr on both nodes");
                }
                addrSamples.incrementAndGet();
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                doubles.add(ms() + " ms: ip addr failed: " + e.getMessage());
            }
        }
    }

    /** True iff no sample so far saw two nodes serving the VIP (ARP or addresses) and no sample failed. */
    boolean neverTwo() {
        return doubles.isEmpty();
    }

    /** Samples taken so far: ARP probes, address probes. */
    int arpSamples() {
        return arpSamples.get();
    }

    int addrSamples() {
        return addrSamples.get();
    }

    /** Who answered ARP for the VIP, in order, each change once, e.g. {@code node1 > node1+node2 > node1}. */
    String arpHistory() {
        synchronized (arpHistory) {
            return String.join(" > ", arpHistory);
        }
    }

    /** The first few moments two nodes served (or a sample failed), for a report. */
    List<String> doubles() {
        synchronized (doubles) {
            return List.copyOf(doubles.subList(0, Math.min(5, doubles.size())));
        }
    }

    /** Stops both samplers (waits for the probe in flight, at most 15 s). */
    @Override
    public void close() throws InterruptedException {
        running.set(false);
        arp.join(15_000);
        addr.join(15_000);
    }
}
