package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.jheartbeat.core.config.ClusterConfig;
import org.jheartbeat.core.config.ConfigLoader;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.loop.GroupExecutor;
import org.jheartbeat.core.testkit.ConfigDirBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockedGroupExecutorTest {
    @TempDir
    Path dir;

    /** Records operations; every one succeeds unless {@link #stopsFail}. */
    private static final class Recorder implements GroupExecutor {
        final List<String> calls = new ArrayList<>();
        boolean stopsFail;
        boolean closed;

        @Override
        public CompletableFuture<Boolean> start(int group) {
            calls.add("start " + group);
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Boolean> stop(int group) {
            calls.add("stop " + group);
            return CompletableFuture.completedFuture(!stopsFail);
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private ClusterConfig config() {
        Path cfg = ConfigDirBuilder.validTwoNode()
                .haresources("node1 198.18.0.100/24/eth0\nnode2 198.18.0.101/24/eth0\n").writeTo(dir);
        return ConfigLoader.load(cfg, Optional.of(NodeName.of("node1"))).config().orElseThrow();
    }

    @Test
    void aBlockedGroupIsNeverStartedUntilAStopSucceedsOthersPassThrough() {
        Recorder inner = new Recorder();
        BlockedGroupExecutor ex = new BlockedGroupExecutor(inner, config(), Set.of(1));

        assertThat(ex.start(1).join()).isFalse();
        assertThat(ex.start(0).join()).isTrue();
        assertThat(inner.calls).containsExactly("start 0");

        inner.stopsFail = true;
        assertThat(ex.stop(1).join()).isFalse();
        assertThat(ex.start(1).join()).as("still blocked after a failed stop").isFalse();
        inner.stopsFail = false;
        assertThat(ex.stop(1).join()).isTrue();
        assertThat(ex.start(1).join()).as("released: may run again").isTrue();
        assertThat(inner.calls).containsExactly("start 0", "stop 1", "stop 1", "start 1");

        ex.close();
        assertThat(inner.closed).isTrue();
    }
}
