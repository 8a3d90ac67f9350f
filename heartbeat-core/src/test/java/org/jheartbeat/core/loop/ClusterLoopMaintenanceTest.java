package org.jheartbeat.core.loop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.FailbackPolicy;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.ClusterLoopHandoverTest.PipeEnd;
import org.jheartbeat.core.takeover.GroupOpReason;
import org.jheartbeat.core.takeover.Maintenance;
import org.jheartbeat.core.testkit.ManualScheduler;
import org.jheartbeat.core.testkit.TwoNodeHarness;
import org.junit.jupiter.api.Test;

/**
 * {@code hb maintenance} through two real {@link ClusterLoop}s on an in-memory link and one
 * {@link ManualScheduler} (fake time, keepalive as the harness config; bounds only catch hangs): asked while the peer is unreachable it is
 * applied here, said so, and reaches the peer when it comes; {@code off} while a group runs on both
 * nodes is refused with what to fix and changes nothing; once fixed, {@code off} adopts what runs.
 */
class ClusterLoopMaintenanceTest {

    /** Groups run where started; {@link #byHand} are running here besides, as an operator started them. */
    static final class Node implements GroupExecutor {
        final Set<Integer> running = ConcurrentHashMap.newKeySet();
        final Set<Integer> byHand = ConcurrentHashMap.newKeySet();

        @Override
        public CompletableFuture<StartResult> start(int group, GroupOpReason reason) {
            running.add(group);
            return CompletableFuture.completedFuture(StartResult.STARTED);
        }

        @Override
        public CompletableFuture<Boolean> stop(int group, GroupOpReason reason) {
            running.remove(group);
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Probe> probe(int group) {
            return CompletableFuture.completedFuture(running.contains(group) || byHand.contains(group) ? Probe.RUNNING
                    : Probe.STOPPED);
        }

        @Override
        public void peerLost(NodeName peer, String how) {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void unreachablePeerThenARefusedOffThenAnOffThatAdopts() throws Exception {
        ClusterConfig config = new TwoNodeHarness(TwoNodeHarness.activeActive(), FailbackPolicy.OFF, 0).config();
        PipeEnd a = new PipeEnd();
        PipeEnd b = new PipeEnd();
        a.other = b;
        b.other = a;
        Node g1 = new Node();
        Node g2 = new Node();
        ManualScheduler s = new ManualScheduler();
        ClusterLoop n1 = ClusterLoopHandoverTest.loop(config, TwoNodeHarness.N1, a, g1, 1, s);
        ClusterLoop n2 = ClusterLoopHandoverTest.loop(config, TwoNodeHarness.N2, b, g2, 2, s);
        try {
            n1.start();
            ClusterLoop.MaintenanceResult on = s.get(n1.maintenance(Maintenance.Scope.CLUSTER, true), 10);
            assertThat(on.ok()).isTrue();
            assertThat(on.detail()).isEqualTo("maintenance cluster-wide on (now: cluster-wide); node2 is not reachable:"
                    + " applied on node1 only, and sent to node2 when it returns");
            n2.start();
            s.runUntilSeconds(() -> s.join(n2.maintenanceView()).setting().cluster()
                    && s.join(n1.snapshot()).takeoverState().equals("stable")
                    && s.join(n2.snapshot()).takeoverState().equals("stable"), 60);
            assertThat(g1.running).as("nothing starts in maintenance").isEmpty();
            assertThat(g2.running).isEmpty();

            // node1's group started by hand on both nodes: off is refused, nothing changes
            g1.byHand.add(0);
            g2.byHand.add(0);
            ClusterLoop.MaintenanceResult twice = s.get(n1.maintenance(Maintenance.Scope.CLUSTER, false), 30);
            assertThat(twice.ok()).isFalse();
            assertThat(twice.detail()).startsWith("resource group(s) " + config.resourceGroups().get(0).key()
                    + " (preferred node node1) run on both node1 and node2; stop each on the node it should not run on")
                    .endsWith("nothing changed, maintenance stays on");
            assertThat(s.join(n1.maintenanceView()).setting().cluster()).isTrue();

            g2.byHand.remove(0);
            ClusterLoop.MaintenanceResult off = s.get(n1.maintenance(Maintenance.Scope.CLUSTER, false), 30);
            assertThat(off.ok()).as(off.detail()).isTrue();
            assertThat(off.detail()).contains(config.resourceGroups().get(0).key() + ": runs on node1, adopted")
                    .contains(config.resourceGroups().get(1).key() + ": ran nowhere, started where it belongs");
            s.runUntilSeconds(() -> g2.running.contains(1) && !s.join(n2.maintenanceView()).setting().any(), 30);
            assertThat(g1.running).as("adopted, not started again").isEmpty();
            assertThat(g2.running).containsExactly(1);
        } finally {
            n1.close();
            n2.close();
        }
    }
}
