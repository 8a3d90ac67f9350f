package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigReload;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.core.journal.ClusterEvent;
import org.jheartbeat.core.journal.EventKind;
import org.jheartbeat.core.loop.ClusterLoopHandoverTest.PipeEnd;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * {@link ClusterLoop#reconfigure} on two real loops joined in memory, on one {@link ManualScheduler}
 * (fake time, keepalive 500 ms): a
 * reload that changes groups waits while a group is starting, then stops the removed group
 * ({@code REMOVED}) and starts nothing else; with the groups still in flux past its wait it fails and
 * applies nothing. Bounds only catch hangs.
 */
class ClusterLoopReloadTest {
    static final String TWO = """
            node1 198.18.0.100/24/eth0 labweb
            node2 198.18.0.101 labweb2
            """;

    /** Records every operation by group key; starts of keys in {@link #held} wait for the test. */
    static final class Recording implements GroupExecutor {
        volatile List<ResourceGroupDecl> groups;
        final List<String> ops = new CopyOnWriteArrayList<>();
        final Map<String, CompletableFuture<StartResult>> held = new ConcurrentHashMap<>();

        Recording(List<ResourceGroupDecl> groups) {
            this.groups = groups;
        }

        @Override
        public CompletableFuture<StartResult> start(int group, GroupOpReason reason) {
            String key = groups.get(group).key();
            ops.add("start " + key + " " + reason);
            CompletableFuture<StartResult> f = held.get(key);
            return f != null ? f : CompletableFuture.completedFuture(StartResult.STARTED);
        }

        @Override
        public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
            ops.add("stop " + groups.get(group).key() + " " + reason);
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public void regroup(List<ResourceGroupDecl> next) {
            groups = next;
        }

        @Override
        public void peerLost(NodeName peer, String how) {
        }

        @Override
        public void close() {
        }
    }

    static ClusterConfig config(String haresources) {
        ClusterConfig c = new TwoNodeHarness(List.of(), FailbackPolicy.ON, 0).config();
        var parsed = HaresourcesParser.parse(Path.of("haresources"), haresources, c.nodes());
        return new ClusterConfig(c.configDir(), c.timing(), c.udpPort(), c.nodes(), c.media(), c.autoFailback(),
                c.logging(), c.authKeys(), parsed.groups(), c.stonith());
    }

    @Test
    void aReloadWaitsForAStartingGroupThenStopsTheRemovedOne() throws Exception {
        ClusterConfig two = config(TWO);
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        Recording groups1 = new Recording(two.resourceGroups());
        ManualScheduler s = new ManualScheduler();
        ClusterLoop n1 = ClusterLoopHandoverTest.loop(two, TwoNodeHarness.N1, a, groups1, 1, s);
        ClusterLoop n2 = ClusterLoopHandoverTest.loop(two, TwoNodeHarness.N2, b, new Recording(two.resourceGroups()), 2,
                s);
        List<ClusterEvent> events = new CopyOnWriteArrayList<>();
        n1.recordEventsTo(events::add);
        try {
            n1.start();
            n2.start();
            s.runUntilSeconds(() -> ClusterLoopHandoverTest.settled(s, n1) && ClusterLoopHandoverTest.settled(s, n2), 60);
            assertThat(groups1.ops).containsExactly("start 198.18.0.100/24/eth0 LOCAL_START");

            // node1 adds a group of its own whose start hangs
            groups1.held.put("198.18.0.102", new CompletableFuture<>());
            ClusterConfig three = ConfigReload.plan(two, config(TWO + "node1 198.18.0.102 labdb\n")).applied();
            s.get(n1.reconfigure(three, TimeUnit.SECONDS.toNanos(30)), 10);
            s.runUntilSeconds(() -> groups1.ops.contains("start 198.18.0.102 LOCAL_START"), 30);

            // while it starts, a reload that changes groups fails after its wait, applying nothing
            ClusterConfig withoutWeb = ConfigReload.plan(three, config("node2 198.18.0.101 labweb2\n"
                    + "node1 198.18.0.102 labdb\n")).applied();
            CompletableFuture<Void> tooShort = n1.reconfigure(withoutWeb, TimeUnit.MILLISECONDS.toNanos(300));
            assertThatThrownBy(() -> s.get(tooShort, 10)).isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("resource groups are still starting or stopping");
            assertThat(groups1.ops).doesNotContain("stop 198.18.0.100/24/eth0 REMOVED");

            // with a longer wait it goes on once the start ends
            CompletableFuture<Void> waits = n1.reconfigure(withoutWeb, TimeUnit.SECONDS.toNanos(30));
            s.advanceMillis(300);
            assertThat(waits).isNotDone();
            groups1.held.get("198.18.0.102").complete(GroupExecutor.StartResult.STARTED);
            s.get(waits, 10);
            assertThat(groups1.ops).containsExactly("start 198.18.0.100/24/eth0 LOCAL_START",
                    "start 198.18.0.102 LOCAL_START", "stop 198.18.0.100/24/eth0 REMOVED");
            s.runUntilSeconds(() -> s.join(n1.snapshot()).groups().stream()
                    .map(g -> g.key() + "=" + g.localState()).toList()
                    .equals(List.of("198.18.0.101=stopped", "198.18.0.102=running")), 30);
            assertThat(s.join(n1.snapshot()).recentEvents())
                    .anyMatch(l -> l.endsWith("Stopping resource group 198.18.0.100/24/eth0 (removed from haresources"
                            + " by a reload)"))
                    .anyMatch(l -> l.endsWith("Resource group 198.18.0.100/24/eth0 stopped; it is no longer in"
                            + " haresources."));
            // journaled as every stop is: a script waits for group-stopped before starting it elsewhere
            assertThat(events.stream().filter(e -> e.subject().equals("198.18.0.100/24/eth0")
                    && (e.kind() == EventKind.GROUP_STOPPING || e.kind() == EventKind.GROUP_STOPPED))
                    .map(e -> e.kind() + " " + e.cause()).toList())
                    .containsExactly("GROUP_STOPPING removed from haresources by a reload", "GROUP_STOPPED ");
        } finally {
            n1.close();
            n2.close();
        }
    }
}
