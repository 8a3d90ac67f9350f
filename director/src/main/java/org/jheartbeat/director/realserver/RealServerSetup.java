package org.jheartbeat.director.realserver;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes a host an LVS-DR real server for a VIP (shared/facts/lvs.md §5.1), idempotently, and undoes
 * it. Two ways:
 * <ul>
 * <li>loopback (default): {@code VIP/32} on {@code lo}, and {@code arp_ignore=1} (answer ARP only
 * for addresses of the receiving interface, so never for the VIP on lo) and {@code arp_announce=2}
 * (never use the VIP as an ARP source). The kernel uses the maximum of
 * {@code conf/all/NAME} and {@code conf/IFACE/NAME} [Linux ip-sysctl.rst], so {@code all} is raised
 * when it is below the wanted value, and every interface's resulting value is reported;</li>
 * <li>DNAT ({@code --dnat}): no VIP on the host at all; {@code iptables -t nat PREROUTING -d VIP/32
 * -j REDIRECT} rewrites packets for the VIP to the receiving interface's own address (the form of
 * the seed's DNAT rule that Red Hat's Load Balancer Administration documents; it needs no RIP and
 * keeps the port). Debian 12's {@code iptables} (nft backend) is used.</li>
 * </ul>
 * The values replaced are recorded (see {@link #setUp}) so {@link #undo} restores them.
 */
public final class RealServerSetup {

    /** The host's side: sysctls, addresses and commands. */
    public interface Host {
        /** Interface names under {@code /proc/sys/net/ipv4/conf} but {@code all} and {@code default}. */
        List<String> interfaces() throws IOException;

        /** {@code /proc/sys/net/ipv4/conf/IFACE/NAME}. */
        int sysctl(String iface, String name) throws IOException;

        /** Writes {@code /proc/sys/net/ipv4/conf/IFACE/NAME}. */
        void setSysctl(String iface, String name, int value) throws IOException;

        /** Whether {@code lo} has {@code VIP/32}. */
        boolean loopbackHas(String vip) throws IOException;

        /** Runs a command; throws with its output if it fails. */
        void run(List<String> argv) throws IOException;

        /** Runs a command and tells whether it exited 0. */
        boolean succeeds(List<String> argv) throws IOException;
    }

    /** The ARP settings wanted, in the order they are applied. */
    static final Map<String, Integer> ARP = new LinkedHashMap<>();

    static {
        ARP.clear();
        ARP.put("arp_ignore", 1);
        ARP.put("arp_announce", 2);
    }

    /**
     * What changed and what was replaced.
     *
     * @param changes  one line per change made (empty: all was already in place)
     * @param notes    the resulting per-interface values, for the operator
     * @param replaced {@code all/NAME} → the value before, for {@link #undo}
     */
    public record Outcome(List<String> changes, List<String> notes, Map<String, Integer> replaced) {
    }

    private RealServerSetup() {
    }

    /** {@code iptables} arguments of the DNAT rule with the operation {@code -C}, {@code -I} or {@code -D}. */
    static List<String> dnatRule(String op, String vip) {
        return List.of("iptables", "-w", "-t", "nat", op, "PREROUTING", "-d", vip + "/32", "-m", "comment",
                "--comment", "jheartbeat realserver " + vip, "-j", "REDIRECT");
    }

    /**
     * Applies the set-up.
     *
     * @param vip  the virtual IPv4 address
     * @param dnat the DNAT way instead of the loopback way
     * @throws IOException if a sysctl cannot be read or written or a command fails
     */
    public static Outcome setUp(Host h, String vip, boolean dnat) throws IOException {
        List<String> changes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, Integer> replaced = new LinkedHashMap<>();
        if (dnat) {
            if (!h.succeeds(dnatRule("-C", vip))) {
                h.run(dnatRule("-I", vip));
                changes.add("added iptables -t nat PREROUTING -d " + vip + "/32 -j REDIRECT");
            }
            return new Outcome(changes, notes, replaced);
        }
        if (!h.loopbackHas(vip)) {
            h.run(List.of("ip", "addr", "add", vip + "/32", "dev", "lo"));
            changes.add("added " + vip + "/32 on lo");
        }
        for (Map.Entry<String, Integer> e : ARP.entrySet()) {
            int all = h.sysctl("all", e.getKey());
            if (all < e.getValue()) {
                h.setSysctl("all", e.getKey(), e.getValue());
                replaced.put("all/" + e.getKey(), all);
                changes.add("net.ipv4.conf.all." + e.getKey() + ": " + all + " -> " + e.getValue());
                all = e.getValue();
            }
            for (String iface : h.interfaces()) {
                int own = h.sysctl(iface, e.getKey());
                notes.add(iface + ": " + e.getKey() + " = " + Math.max(all, own) + " (max of all " + all + ", "
                        + iface + " " + own + ")");
            }
        }
        return new Outcome(changes, notes, replaced);
    }

    /**
     * Undoes the set-up: removes the VIP from lo (or the DNAT rule) and restores the recorded sysctls.
     *
     * @param recorded what {@link #setUp} replaced ({@code all/NAME} → value); sysctls not recorded are
     *                 left as they are
     * @return one line per change made
     * @throws IOException if a sysctl cannot be written or a command fails
     */
    public static List<String> undo(Host h, String vip, boolean dnat, Map<String, Integer> recorded)
            throws IOException {
        List<String> changes = new ArrayList<>();
        if (dnat) {
            while (h.succeeds(dnatRule("-C", vip))) {
                h.run(dnatRule("-D", vip));
                changes.add("deleted iptables -t nat PREROUTING -d " + vip + "/32 -j REDIRECT");
            }
            return changes;
        }
        if (h.loopbackHas(vip)) {
            h.run(List.of("ip", "addr", "del", vip + "/32", "dev", "lo"));
            changes.add("deleted " + vip + "/32 from lo");
        }
        for (Map.Entry<String, Integer> e : recorded.entrySet()) {
            String[] p = e.getKey().split("/", 2);
            int now = h.sysctl(p[0], p[1]);
            if (now != e.getValue()) {
                h.setSysctl(p[0], p[1], e.getValue());
                changes.add("net.ipv4.conf." + p[0] + "." + p[1] + ": " + now + " -> " + e.getValue());
            }
        }
        return changes;
    }
}
