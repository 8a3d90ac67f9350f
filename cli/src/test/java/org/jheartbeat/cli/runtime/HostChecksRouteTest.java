package org.jheartbeat.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.jheartbeat.core.config.HaresourcesParser;
import org.jheartbeat.core.config.NodeName;
import org.jheartbeat.core.config.ResourceGroupDecl;
import org.jheartbeat.resources.ip.RouteTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The route part of {@link HostChecks}, on a given routing table instead of this machine's. */
class HostChecksRouteTest {
    @TempDir
    Path dir;

    private static final RouteTable ROUTES = RouteTable.parse("""
            default via 198.18.0.1 dev eth0
            198.18.0.0/24 dev eth0 proto kernel scope link src 198.18.0.1
            """);

    private List<ResourceGroupDecl> groups(String text) {
        HaresourcesParser.Result r = HaresourcesParser.parse(dir.resolve("haresources"), text,
                List.of(NodeName.of("node1"), NodeName.of("node2")));
        assertThat(r.diagnostics()).isEmpty();
        return r.groups();
    }

    @Test
    void anAddressOnlyTheDefaultRouteReachesIsAnErrorOneWithARouteIsNot() {
        AtomicInteger reads = new AtomicInteger();
        HostChecks checks = new HostChecks(dir, () -> {
            reads.incrementAndGet();
            return Optional.of(ROUTES);
        });
        List<ConfigDiagnostic> out = checks.checkResources(dir, groups(
                "node1 IPaddr2::198.18.0.100\nnode2 IPaddr2::198.19.5.5 IPaddr::198.19.5.6/24/eth0\n"));
        assertThat(out).filteredOn(ConfigDiagnostic::isError).singleElement().satisfies(d -> {
            assertThat(d.line()).isEqualTo(2);
            assertThat(d.message()).startsWith("no route of this machine can carry 198.19.5.5 (IPaddr2::198.19.5.5)");
        });
        assertThat(reads.get()).as("the routing table is read once").isEqualTo(1);
    }

    @Test
    void fullySpecifiedAddressesNeverReadTheRoutes() {
        HostChecks checks = new HostChecks(dir, () -> {
            throw new AssertionError("routes read");
        });
        assertThat(checks.checkResources(dir, groups("node1 198.19.5.5/24/eth0\n")))
                .noneMatch(ConfigDiagnostic::isError);
    }

    @Test
    void unreadableRoutesAreAWarningNotASilentPass() {
        HostChecks checks = new HostChecks(dir, Optional::empty);
        assertThat(checks.checkResources(dir, groups("node1 198.19.5.5\n"))).singleElement().satisfies(d -> {
            assertThat(d.isError()).isFalse();
            assertThat(d.message()).contains("cannot read this machine's routes");
        });
    }
}
