package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A host name that moves with its group, on real programs: a BIND 9 {@code named} in the client's namespace serves the dynamic
 * zone {@code townhall.lan} (TSIG-signed updates only); Samba's {@code nmbd} runs inside the nodes, each
 * with its own /etc/samba, /var/lib/samba, /var/cache/samba and /var/log/samba (bind mounts in its mount
 * namespace) and its own /run (LAB_PRIVATE_RUN=1). node2's machine nmbd answers NODE2; node1's group holds
 * {@code Hostname::node1} with NetBIOS, DNS and the host name. From the client, by NetBIOS broadcast
 * ({@code nmblookup}) and DNS ({@code dig}): node1's names point at node1, then, after node1's power-off,
 * at the address node2 serves (node2's uname -n is node1, its node identity stays node2, NODE2 is still
 * answered), then at node1 again after failback.
 *
 * <p>Node identity: a daemon started on node2 while its host name is node1, without {@code --node-name},
 * does not start as node1 (exit 2, the record and the own name named). Bad input (second test, node1
 * alone): its group names a record in a zone the server is not authoritative for; the start fails with the
 * server's NOTAUTH in {@code hb status} and the log, and neither the address nor the service to the
 * right of the name stays up.
 */
@Tag("root")
class HostnameTakeoverIT {
    static final String VIP1 = "198.18.0.100";
    static final String DNS = "198.18.0.10";
    static final String JAR = Path.of(System.getProperty("hb.jar", "target/hb.jar")).toAbsolutePath().toString();

    @Test
    void namesFollowTheGroupAndTheNodeKeepsItsIdentity() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/named")) && Files.isExecutable(Path.of("/usr/sbin/nmbd"))
                && Files.isExecutable(Path.of("/usr/bin/nsupdate")) && Files.isExecutable(Path.of("/usr/bin/nmblookup")),
                "scripts/setup.sh installs bind9, bind9-dnsutils, samba and samba-common-bin");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_INITDEAD", "4",
                "LAB_AUTO_FAILBACK", "on", "LAB_PRIVATE_RUN", "1"))) {
            Path named = lab.runDir().resolve("named");
            Path key = named.resolve("ddns.key");
            String group1 = "node1 " + VIP1 + "/24/eth0 Hostname::node1::address=" + VIP1 + "::netbios=yes"
                    + "::dns=node1.townhall.lan::dns_server=" + DNS + "::dns_home=198.18.0.1::dns_key=" + key
                    + "::hostname=yes labweb";
            for (String node : List.of("node1", "node2")) {
                Files.writeString(lab.configDir(node).resolve("haresources"), group1 + "\n");
            }
            startNamed(lab, named);
            Lab.Result check = lab.lab("exec", "node1", "java", "-jar", JAR, "config", "check", "--config-dir",
                    lab.configDir("node1").toString());
            assertThat(check.code()).as(check.output()).isZero(); // warnings only (initdead 4 s)
            boot(lab, "node1", false);
            boot(lab, "node2", true);
            assertThat(lab.lab("start", "node1").code()).isZero();
            assertThat(lab.lab("start", "node2").code()).isZero();
            long t0 = System.nanoTime();
            lab.waitUntil(() -> lab.holds("node1", VIP1) && "node1".equals(lab.http()), Figures.HANG_MS,
                    "node1 serving labweb");
            awaitNames(lab, "node1", "198.18.0.1");
            Figures.print("hostname_boot_ms", ms(t0), "ms", "node1's names answer from node1 after both daemons started");
            assertThat(netbios(lab, "NODE2")).containsExactly("198.18.0.2");

            // from here to the end: never two nodes answering for node1's NetBIOS name or its address
            List<String> doubles = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            java.util.concurrent.atomic.AtomicInteger samples = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean sampling = new java.util.concurrent.atomic.AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    try {
                        List<String> answers = netbios(lab, "NODE1");
                        if (answers.size() > 1) {
                            doubles.add(java.time.LocalTime.now() + " NODE1 answered by " + answers);
                        }
                        if (lab.heldByBoth(VIP1)) {
                            doubles.add(java.time.LocalTime.now() + " " + VIP1 + " on both nodes");
                        }
                        samples.incrementAndGet();
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "names-sampler");
            sampler.setDaemon(true);
            sampler.start();

            t0 = System.nanoTime();
            assertThat(lab.lab("poweroff", "node1").code()).isZero();
            // labweb answers with uname -n read at its start: on node2 that is node1 now, as any service reading it sees
            lab.waitUntil(() -> lab.holds("node2", VIP1) && "node1".equals(lab.http()), Figures.HANG_MS,
                    "node2 serving labweb under node1's host name");
            awaitNames(lab, "node2", VIP1);
            Figures.print("hostname_failover_ms", ms(t0), "ms", "node1's NetBIOS and DNS names answer from node2 after node1's power-off");
            assertThat(exec(lab, "node2", "hostname")).isEqualTo("node1");
            assertThat(lab.lab("status", "node2").output()).startsWith("Node node2 ").contains("node2        active  (this node)");
            assertThat(netbios(lab, "NODE2")).as("node2's own NetBIOS name is untouched").containsExactly("198.18.0.2");

            // node identity: a daemon started on node2 now, without --node-name, reads uname -n = node1 and
            // refuses (its own state directory, so the running daemon's does not stop it first)
            Lab.Result asPeer = lab.lab("exec", "node2", "java", "-jar", JAR, "daemon", "--config-dir",
                    lab.configDir("node2").toString(), "--state-dir", lab.runDir().resolve("node2/state-again").toString());
            assertThat(asPeer.code()).as(asPeer.output()).isEqualTo(2);
            assertThat(asPeer.output()).contains("/run/jheartbeat/hostname/node1:1: uname -n says node1, but this machine"
                    + " took that host name over from its peer").contains("Start it with --node-name node2");
            assertThat(lab.daemonLog("node2", 400)).doesNotContain("Another live node");

            t0 = System.nanoTime();
            assertThat(lab.lab("poweron", "node1").code()).isZero();
            boot(lab, "node1", false);
            assertThat(lab.lab("start", "node1").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP1) && "node1".equals(lab.http()), Figures.HANG_MS,
                    "node1 serving labweb again");
            awaitNames(lab, "node1", "198.18.0.1");
            Figures.print("hostname_failback_ms", ms(t0), "ms", "node1's names answer from node1 again after it came back");
            assertThat(exec(lab, "node2", "hostname")).isEqualTo("node2");
            assertThat(lab.holds("node2", VIP1)).isFalse();
            assertThat(netbios(lab, "NODE2")).containsExactly("198.18.0.2");
            sampling.set(false);
            sampler.join(10_000);
            System.out.println("HostnameTakeoverIT: " + samples.get() + " samples of NODE1's NetBIOS answers and "
                    + VIP1 + "'s holders");
            assertThat(samples.get()).as("samples taken").isGreaterThan(3);
            assertThat(doubles).as("two nodes answering for node1's name or address").isEmpty();
        }
    }

    @Test
    void aNameTheServerRefusesFailsTheGroupWhole() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/named")) && Files.isExecutable(Path.of("/usr/bin/nsupdate")),
                "scripts/setup.sh installs bind9 and bind9-dnsutils");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_INITDEAD", "4",
                "LAB_PRIVATE_RUN", "1"))) {
            Path named = lab.runDir().resolve("named");
            // a record in a zone the server is not authoritative for: it answers NOTAUTH (RFC 2136 2.2)
            String token = "Hostname::node1::address=" + VIP1 + "::dns=node1.elsewhere.lan::dns_zone=elsewhere.lan"
                    + "::dns_server=" + DNS + "::dns_home=198.18.0.1::dns_key=" + named.resolve("ddns.key");
            Files.writeString(lab.configDir("node1").resolve("haresources"), "node1 " + VIP1 + "/24/eth0 " + token
                    + " labweb\n");
            startNamed(lab, named);
            assertThat(lab.lab("start", "node1").code()).isZero(); // alone: it takes its group after initdead
            lab.waitUntil(() -> lab.lab("status", "node1").output().contains("NOTAUTH"), Figures.HANG_MS,
                    "the group's start failing with the server's answer");
            String status = lab.lab("status", "node1").output();
            assertThat(status).contains("CRIT: ").contains(token)
                    .contains("DNS update of node1.elsewhere.lan. to A 198.18.0.1 at " + DNS
                            + " failed: the server answered NOTAUTH");
            assertThat(lab.daemonLog("node1", 400)).contains("Giving up resources due to failure of " + token)
                    .contains("the server answered NOTAUTH (update failed: NOTAUTH)");
            assertThat(lab.holds("node1", VIP1)).as("not started half-way: the address is released").isFalse();
            assertThat(lab.http()).as("labweb, right of the failed resource, never started").isEmpty();
        }
    }

    /**
     * Drill (-Djhb.drills=true, ~30 s): the run-time rule. node1 serves its group alone; on node2 an operator
     * starts a daemon explicitly named node1 (its own state directory, so its own node UUID). Each hears
     * the other beat with its own name: both log the CRIT, and the impostor, whose peer node2 is silent,
     * takes nothing over in the 15 s it runs (past initdead), so node1's address is never on node2.
     */
    @Test
    void aLiveNodeWithOurNameIsRefused() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: ./test.sh -Djhb.drills=true (README: longer drills)");
        try (Lab lab = new Lab(Map.of("LAB_KEEPALIVE", "500ms", "LAB_DEADTIME", "3", "LAB_INITDEAD", "4"))) {
            assertThat(lab.lab("start", "node1").code()).isZero();
            lab.waitUntil(() -> lab.holds("node1", VIP1) && "node1".equals(lab.http()), Figures.HANG_MS, "node1 serving");
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicInteger both = new java.util.concurrent.atomic.AtomicInteger();
            Thread sampler = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        if (lab.holds("node2", VIP1)) {
                            both.incrementAndGet();
                        }
                    } catch (Exception e) {
                        both.incrementAndGet();
                    }
                }
            }, "vip-sampler");
            sampler.start();
            Lab.Result impostor;
            try {
                impostor = lab.lab("exec", "node2", "timeout", "15", "java", "-jar", JAR, "daemon", "--config-dir",
                        lab.configDir("node2").toString(), "--state-dir", lab.runDir().resolve("node2/impostor").toString(),
                        "--node-name", "node1");
            } finally {
                stop.set(true);
                sampler.join(10_000);
            }
            assertThat(impostor.output()).contains("Another live node uses this node's name node1")
                    .contains("node node2: is dead").doesNotContain("Running ip -4 addr add");
            assertThat(lab.daemonLog("node1", 400)).contains("CRIT: Another live node uses this node's name node1");
            assertThat(both.get()).as("samples with node1's address on node2").isZero();
            assertThat(lab.holds("node1", VIP1)).isTrue();
        }
    }

    /** Waits until NODE1 (NetBIOS, broadcast) is answered at VIP1 held by {@code node} and DNS names {@code dnsAddress}. */
    private static void awaitNames(Lab lab, String node, String dnsAddress) throws Exception {
        lab.waitUntil(() -> lab.holds(node, VIP1) && netbios(lab, "NODE1").equals(List.of(VIP1))
                && dig(lab, "node1.townhall.lan").equals(List.of(dnsAddress)), Figures.HANG_MS,
                "NODE1 at " + VIP1 + " on " + node + " and node1.townhall.lan at " + dnsAddress);
    }

    /** The addresses a NetBIOS broadcast query from the client gets for {@code name}. */
    static List<String> netbios(Lab lab, String name) throws Exception {
        Lab.Result r = lab.lab("client", "nmblookup", "-B", "198.18.0.255", name);
        Matcher m = Pattern.compile("(?m)^(\\d+\\.\\d+\\.\\d+\\.\\d+) " + name + "<00>$").matcher(r.output());
        List<String> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The A records of {@code fqdn} at the lab's DNS server, asked from the client. */
    static List<String> dig(Lab lab, String fqdn) throws Exception {
        Lab.Result r = lab.lab("client", "dig", "+short", "+norecurse", "+time=1", "+tries=1", "@" + DNS, fqdn, "A");
        return r.output().lines().map(String::strip).filter(l -> l.matches("\\d+\\.\\d+\\.\\d+\\.\\d+")).toList();
    }

    private static String exec(Lab lab, String node, String... argv) throws Exception {
        List<String> a = new java.util.ArrayList<>(List.of("exec", node));
        a.addAll(List.of(argv));
        return lab.lab(a.toArray(String[]::new)).output().strip();
    }

    /**
     * What the machine's boot does for Samba: its own /etc/samba, /var/lib/samba, /var/cache/samba and
     * /var/log/samba (bind mounts inside the node's mount namespace, from the lab's run dir) and, on node2,
     * the machine's own nmbd answering NODE2 on 198.18.0.2 only.
     */
    private static void boot(Lab lab, String node, boolean machineNmbd) throws Exception {
        Path d = lab.runDir().resolve(node).resolve("samba");
        for (String sub : List.of("etc", "lib", "cache", "log")) {
            Files.createDirectories(d.resolve(sub));
        }
        String n = node.substring(4);
        Files.writeString(d.resolve("etc/smb.conf"), "[global]\n   netbios name = NODE" + n + "\n   workgroup = TOWNHALL\n"
                + "   interfaces = 198.18.0." + n + "\n   bind interfaces only = yes\n");
        String mounts = "mount --bind " + d.resolve("etc") + " /etc/samba && mount --bind " + d.resolve("lib")
                + " /var/lib/samba && mount --bind " + d.resolve("cache") + " /var/cache/samba && mount --bind "
                + d.resolve("log") + " /var/log/samba && mkdir -p /run/samba";
        Lab.Result r = lab.lab("exec", node, "sh", "-c", mounts + (machineNmbd ? " && nmbd -D" : ""));
        assertThat(r.code()).as(r.output()).isZero();
    }

    /** {@code named} in the client's namespace, on 198.18.0.10 only, zone townhall.lan updated with TSIG. */
    private static void startNamed(Lab lab, Path dir) throws Exception {
        Files.createDirectories(dir);
        Lab.Result key = lab.run(List.of("tsig-keygen", "-a", "hmac-sha256", "ddns-key"), 30);
        assertThat(key.code()).as(key.output()).isZero();
        Files.writeString(dir.resolve("ddns.key"), key.output());
        Files.writeString(dir.resolve("named.conf"), "include \"" + dir.resolve("ddns.key") + "\";\n"
                + "options {\n  directory \"" + dir + "\";\n  pid-file \"" + dir.resolve("named.pid") + "\";\n"
                + "  listen-on port 53 { " + DNS + "; };\n  listen-on-v6 { none; };\n  recursion no;\n"
                + "  dnssec-validation no;\n  notify no;\n};\ncontrols { };\n"
                + "zone \"townhall.lan\" {\n  type primary;\n  file \"" + dir.resolve("townhall.lan.zone") + "\";\n"
                + "  allow-update { key ddns-key; };\n};\n");
        Files.writeString(dir.resolve("townhall.lan.zone"), "$TTL 60\n"
                + "@ IN SOA ns.townhall.lan. admin.townhall.lan. ( 1 60 60 600 60 )\n@ IN NS ns.townhall.lan.\n"
                + "ns IN A " + DNS + "\nnode1 IN A 198.18.0.1\nnode2 IN A 198.18.0.2\n");
        Lab.Result r = lab.lab("client", "named", "-c", dir.resolve("named.conf").toString(), "-L",
                dir.resolve("named.log").toString());
        assertThat(r.code()).as(r.output()).isZero();
        lab.waitUntil(() -> dig(lab, "node1.townhall.lan").equals(List.of("198.18.0.1")), Figures.HANG_MS, "named answering");
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
