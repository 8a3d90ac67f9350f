package org.jheartbeat.core.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.LogSettings;
import org.jheartbeat.core.config.MediumDecl;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.config.ResourceSpec;
import org.jheartbeat.core.config.StonithDecl;
import org.jheartbeat.core.config.Timing;
import org.jheartbeat.core.protocol.SafetyRules;

/**
 * The cluster one schedule runs: what both nodes' ha.cf, haresources and jheartbeat.yaml say, and how
 * fast the simulated agents, fencing device and power are. Drawn from a seed ({@link #draw}); every
 * field can be set by a test. Two media: {@code ucast eth1} and {@code serial /dev/ttyS0} at 19200 baud.
 *
 * @param stonith          whether both nodes have a STONITH device ({@code stonith_host * null node1 node2})
 * @param fenceDelayMillis jheartbeat.yaml {@code stonith.fence_delay}, ms (0: none)
 * @param failback         ha.cf {@code auto_failback}
 * @param selfFence        whether a node resets itself when a stop fails ({@code --self-fence})
 * @param activeActive     haresources: one group per node (else one group, node1's)
 * @param sha1             authkeys {@code sha1} (else {@code crc}, cheaper; both reject a flipped byte)
 * @param node2StartMillis when node2's daemon starts, ms after node1's
 * @param startMillis      how long one resource's start takes, ms (each operation varies ±50 %)
 * @param stopMillis       how long one resource's stop takes, ms
 * @param fenceMillis      how long the fencing device takes to power a node off and answer, ms
 * @param rebootMillis     how long a fenced (reset) node takes to boot and start its daemon again, ms
 * @param rules            the safety rules of both engines (tests prove them by switching one off)
 * @param timing           ha.cf keepalive, warntime, deadtime and initdead
 */
public record SimSetup(boolean stonith, long fenceDelayMillis, FailbackPolicy failback, boolean selfFence,
                       boolean activeActive, boolean sha1, long node2StartMillis, long startMillis, long stopMillis,
                       long fenceMillis, long rebootMillis, SafetyRules rules, Timing timing) {
    static final NodeName N1 = NodeName.of("node1");
    static final NodeName N2 = NodeName.of("node2");
    /** keepalive 500 ms, warntime 2 s, deadtime 3 s, initdead 10 s: the scenario tests' timing. */
    static final Timing FAST = Timing.ofMillis(500, 2000, 3000, 10_000);
    /** keepalive 1 s, deadtime 5 s, initdead 10 s. */
    static final Timing MEDIUM = Timing.ofMillis(1000, 3000, 5000, 10_000);
    /** keepalive 2 s, deadtime 8 s, initdead 16 s. */
    static final Timing SLOW = Timing.ofMillis(2000, 5000, 8000, 16_000);
    private static final java.util.Map<String, ClusterConfig> CONFIGS = new java.util.concurrent.ConcurrentHashMap<>();
    /** How long the executor lets one agent operation run before it kills it and calls it failed, ms. */
    static final long AGENT_TIMEOUT_MILLIS = 20_000;
    /** How long the fencing device may take before the fencer gives up on it, ms. */
    static final long FENCE_TIMEOUT_MILLIS = 8_000;

    private static final String G1 = "node1 198.18.0.100/24/eth0 labweb\n";
    private static final String G2 = "node2 198.18.0.101 labweb2\n";
    private static final String G3 = "node1 198.18.0.102 labdb\n";

    /** The usual cluster of the scenario tests: active/active with STONITH, a 5 s fence delay, failback on. */
    public static SimSetup typical() {
        return new SimSetup(true, 5000, FailbackPolicy.ON, false, true, false, 0, 300, 200, 500, 10_000,
                SafetyRules.ALL, FAST);
    }

    /** A cluster drawn from {@code random}. */
    public static SimSetup draw(SplittableRandom random) {
        boolean stonith = random.nextInt(100) < 50;
        long delay = stonith && random.nextInt(100) < 70 ? 5000 : 0;
        FailbackPolicy failback = switch (random.nextInt(20)) {
            case 0, 1, 2 -> FailbackPolicy.LEGACY;
            case 3, 4, 5, 6, 7, 8, 9 -> FailbackPolicy.OFF;
            default -> FailbackPolicy.ON;
        };
        int t = random.nextInt(10);
        Timing timing = t < 4 ? FAST : t < 8 ? MEDIUM : SLOW;
        long initdead = timing.initdead().toMillis();
        return new SimSetup(stonith, delay, failback, random.nextInt(100) < 20, random.nextInt(100) < 70,
                random.nextInt(100) < 20, random.nextInt(100) < 20 ? initdead + random.nextInt(5000) : random.nextInt(3000),
                50 + random.nextInt(1500), 50 + random.nextInt(800), 200 + random.nextInt(1800),
                5000 + random.nextInt(15_000), SafetyRules.ALL, timing);
    }

    /** This setup with other safety rules. */
    public SimSetup with(SafetyRules r) {
        return new SimSetup(stonith, fenceDelayMillis, failback, selfFence, activeActive, sha1, node2StartMillis,
                startMillis, stopMillis, fenceMillis, rebootMillis, r, timing);
    }

    /** This setup with or without STONITH (and then no fence delay). */
    public SimSetup withStonith(boolean on, long delayMillis) {
        return new SimSetup(on, on ? delayMillis : 0, failback, selfFence, activeActive, sha1, node2StartMillis,
                startMillis, stopMillis, fenceMillis, rebootMillis, rules, timing);
    }

    /**
     * haresources variant {@code v}: 0 the base; 1 a group added; 2 node1's group defined differently (one
     * resource more); 3 a group removed (active/active) or node1's group preferring node2 (one group).
     */
    String haresources(int v) {
        String base = activeActive ? G1 + G2 : G1;
        return switch (v) {
            case 1 -> base + (activeActive ? G3 : G2);
            case 2 -> "node1 198.18.0.100/24/eth0 labweb labextra\n" + (activeActive ? G2 : "");
            case 3 -> activeActive ? G1 : "node2 198.18.0.100/24/eth0 labweb\n";
            default -> base;
        };
    }

    /** How many haresources variants {@link #haresources} knows. */
    static final int VARIANTS = 4;

    /** The configuration with haresources variant {@code v} (parsed once per distinct cluster and variant). */
    ClusterConfig config(int v) {
        String key = stonith + " " + failback + " " + activeActive + " " + sha1 + " " + timing + " " + v;
        return CONFIGS.computeIfAbsent(key, k -> parse(v));
    }

    private ClusterConfig parse(int v) {
        var parsed = HaresourcesParser.parse(Path.of("/sim/ha.d/haresources"), haresources(v), List.of(N1, N2));
        if (parsed.hasErrors()) {
            throw new IllegalStateException("bad simulated haresources: " + parsed.diagnostics());
        }
        List<MediumDecl> media = List.of(new MediumDecl.Ucast("eth1", "198.18.1.2", 694, 1),
                new MediumDecl.Serial("/dev/ttyS0", MediumDecl.Serial.DEFAULT_BAUD, 2));
        List<StonithDecl> devices = stonith ? List.of(new StonithDecl(Optional.empty(), "null",
                List.of("node1", "node2"), Optional.empty(), 3)) : List.of();
        return new ClusterConfig(Path.of("/sim/ha.d"), timing, 694, List.of(N1, N2), media, failback,
                LogSettings.none(), AuthKeys.single(1, sha1 ? AuthMethod.SHA1 : AuthMethod.CRC,
                "simsecret".getBytes(java.nio.charset.StandardCharsets.US_ASCII)), parsed.groups(), devices);
    }

    /** Every group key any variant defines, in a fixed order: events name groups by index into it. */
    List<String> groupKeys() {
        Map<String, Boolean> keys = new LinkedHashMap<>();
        for (int v = 0; v < VARIANTS; v++) {
            for (ResourceGroupDecl g : config(v).resourceGroups()) {
                keys.put(g.key(), true);
            }
        }
        return new ArrayList<>(keys.keySet());
    }

    /** Every resource token any variant uses, in a fixed order (what can run twice). */
    List<String> resourceTokens() {
        Map<String, Boolean> tokens = new LinkedHashMap<>();
        for (int v = 0; v < VARIANTS; v++) {
            for (ResourceGroupDecl g : config(v).resourceGroups()) {
                for (ResourceSpec r : g.resources()) {
                    tokens.put(r.token(), true);
                }
            }
        }
        return new ArrayList<>(tokens.keySet());
    }

    /** One line for reports. */
    public String describe() {
        return String.format(Locale.ROOT, "%s, %s, auto_failback %s%s, keepalive %d ms, deadtime %d ms, initdead"
                        + " %d ms, %s auth, node2 starts at %.1f s,"
                        + " start %d ms/resource, stop %d ms, fence %d ms, reboot %.1f s%s",
                activeActive ? "active/active" : "one group", stonith ? "STONITH" + (fenceDelayMillis > 0
                        ? " (fence_delay " + fenceDelayMillis + " ms)" : " (no fence delay)") : "no STONITH",
                failback.name().toLowerCase(Locale.ROOT), selfFence ? ", self-fence on stop failure" : "",
                timing.keepalive().toMillis(), timing.deadtime().toMillis(), timing.initdead().toMillis(),
                sha1 ? "sha1" : "crc", node2StartMillis / 1000.0, startMillis, stopMillis, fenceMillis,
                rebootMillis / 1000.0, rules.equals(SafetyRules.ALL) ? "" : ", SAFETY RULES " + rules);
    }
}
