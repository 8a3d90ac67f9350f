package org.jheartbeat.director.realserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@link RealServerSetup} on a fake host: what it changes, idempotence, per-interface values, undo. */
class RealServerSetupTest {

    static final class FakeHost implements RealServerSetup.Host {
        final Map<String, Integer> sysctls = new HashMap<>();
        final Set<String> lo = new HashSet<>();
        final Set<String> rules = new HashSet<>();
        final List<String> ran = new ArrayList<>();

        FakeHost() {
            for (String i : List.of("all", "eth0", "lo")) {
                sysctls.put(i + "/arp_ignore", 0);
                sysctls.put(i + "/arp_announce", 0);
            }
        }

        @Override
        public List<String> interfaces() {
            return List.of("eth0", "lo");
        }

        @Override
        public int sysctl(String iface, String name) {
            return sysctls.get(iface + "/" + name);
        }

        @Override
        public void setSysctl(String iface, String name, int value) {
            sysctls.put(iface + "/" + name, value);
        }

        @Override
        public boolean loopbackHas(String vip) {
            return lo.contains(vip);
        }

        @Override
        public void run(List<String> argv) {
            ran.add(String.join(" ", argv));
            if (argv.get(0).equals("ip")) {
                if (argv.get(2).equals("add")) {
                    lo.add(argv.get(3).replace("/32", ""));
                } else {
                    lo.remove(argv.get(3).replace("/32", ""));
                }
            } else if (argv.contains("-I")) {
                rules.add(argv.get(argv.indexOf("-d") + 1));
            } else if (argv.contains("-D")) {
                rules.remove(argv.get(argv.indexOf("-d") + 1));
            }
        }

        @Override
        public boolean succeeds(List<String> argv) {
            return argv.contains("-C") && rules.contains(argv.get(argv.indexOf("-d") + 1));
        }
    }

    @Test
    void loopbackWayIsIdempotentReportsEachInterfaceAndUndoes() throws Exception {
        FakeHost h = new FakeHost();
        h.setSysctl("eth0", "arp_announce", 2);
        RealServerSetup.Outcome first = RealServerSetup.setUp(h, "198.18.0.150", false);
        assertThat(first.changes()).containsExactly("added 198.18.0.150/32 on lo",
                "net.ipv4.conf.all.arp_ignore: 0 -> 1", "net.ipv4.conf.all.arp_announce: 0 -> 2");
        assertThat(first.notes()).contains("eth0: arp_ignore = 1 (max of all 1, eth0 0)",
                "eth0: arp_announce = 2 (max of all 2, eth0 2)");
        assertThat(first.replaced()).containsEntry("all/arp_ignore", 0).containsEntry("all/arp_announce", 0);
        RealServerSetup.Outcome again = RealServerSetup.setUp(h, "198.18.0.150", false);
        assertThat(again.changes()).isEmpty();
        assertThat(RealServerSetup.undo(h, "198.18.0.150", false, first.replaced())).containsExactly(
                "deleted 198.18.0.150/32 from lo", "net.ipv4.conf.all.arp_ignore: 1 -> 0",
                "net.ipv4.conf.all.arp_announce: 2 -> 0");
        assertThat(h.lo).isEmpty();
        assertThat(RealServerSetup.undo(h, "198.18.0.150", false, Map.of())).isEmpty();
    }

    @Test
    void aHigherAllValueIsKept() throws Exception {
        FakeHost h = new FakeHost();
        h.setSysctl("all", "arp_ignore", 2);
        RealServerSetup.Outcome o = RealServerSetup.setUp(h, "198.18.0.150", false);
        assertThat(o.changes()).doesNotContain("net.ipv4.conf.all.arp_ignore: 2 -> 1");
        assertThat(h.sysctl("all", "arp_ignore")).isEqualTo(2);
    }

    @Test
    void dnatWayAddsOneRuleOnceAndRemovesIt() throws Exception {
        FakeHost h = new FakeHost();
        assertThat(RealServerSetup.setUp(h, "198.18.0.150", true).changes())
                .containsExactly("added iptables -t nat PREROUTING -d 198.18.0.150/32 -j REDIRECT");
        assertThat(RealServerSetup.setUp(h, "198.18.0.150", true).changes()).isEmpty();
        assertThat(h.ran).hasSize(1);
        assertThat(h.ran.get(0)).isEqualTo("iptables -w -t nat -I PREROUTING -d 198.18.0.150/32 -m comment --comment"
                + " jheartbeat realserver 198.18.0.150 -j REDIRECT");
        assertThat(h.lo).isEmpty();
        assertThat(RealServerSetup.undo(h, "198.18.0.150", true, Map.of())).hasSize(1);
        assertThat(h.rules).isEmpty();
    }
}
