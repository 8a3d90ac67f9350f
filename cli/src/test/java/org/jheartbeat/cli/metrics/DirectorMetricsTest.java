package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jheartbeat.director.config.Endpoint;
import org.jheartbeat.director.config.LdirectordConfig;
import org.jheartbeat.director.config.LdirectordParser;
import org.jheartbeat.director.config.VirtualService;
import org.jheartbeat.director.table.Counters;
import org.jheartbeat.director.table.ServiceSpec;
import org.jheartbeat.director.table.TableReal;
import org.jheartbeat.director.table.TableService;
import org.jheartbeat.director.table.TableSnapshot;
import org.junit.jupiter.api.Test;

/** The director's families from its status: in the table with a weight, quiesced, out, and no answer. */
class DirectorMetricsTest {
    /**
     * A director with three reals behind 198.18.0.100:80: .21 in with weight 2 and connections, .22 quiesced by its
     * failing check (weight 0), .23 out of the table.
     */
    static DirectorMetrics.Status sample() {
        LdirectordConfig cfg = new LdirectordParser().parse(Path.of("/etc/ha.d/ldirectord.cf"),
                "virtual=198.18.0.100:80\n\treal=198.18.0.21:80 gate 2\n\treal=198.18.0.22:80 gate 1\n"
                        + "\treal=198.18.0.23:80 gate 1\n\tchecktype=connect\n\tscheduler=wlc\n").config().orElseThrow();
        VirtualService v = cfg.virtuals().get(0);
        TableService s = new TableService(ServiceSpec.of(v), List.of(
                new TableReal(spec(v, 0, 2), 7, 3, Counters.ZERO,
                        Counters.ZERO),
                TableReal.idle(spec(v, 1, 0))), Counters.ZERO, Counters.ZERO);
        Map<Endpoint, Boolean> checks = Map.of(v.reals().get(0).endpoint(), true, v.reals().get(1).endpoint(), false,
                v.reals().get(2).endpoint(), false);
        return new DirectorMetrics.Status(cfg.virtuals(), Map.of(v.key(), checks),
                new TableSnapshot(List.of(s), List.of()));
    }

    private static org.jheartbeat.director.table.RealSpec spec(VirtualService v, int i, int weight) {
        var r = v.reals().get(i);
        return new org.jheartbeat.director.table.RealSpec(r.endpoint(), r.forward(), weight, 0, 0);
    }

    @Test
    void eachConfiguredRealIsUpOnlyInTheTableWithAWeight() throws Exception {
        String text = ClusterMetricsTest.text(DirectorMetrics.of(Optional.of(sample())));
        String v = "virtual=\"198.18.0.100:80\"";
        assertThat(text.lines()).contains("jheartbeat_director_up 1.0",
                "jheartbeat_director_real_up{protocol=\"tcp\",real=\"198.18.0.21:80\"," + v + "} 1.0",
                "jheartbeat_director_real_up{protocol=\"tcp\",real=\"198.18.0.22:80\"," + v + "} 0.0",
                "jheartbeat_director_real_up{protocol=\"tcp\",real=\"198.18.0.23:80\"," + v + "} 0.0",
                "jheartbeat_director_real_weight{protocol=\"tcp\",real=\"198.18.0.21:80\"," + v + "} 2.0",
                "jheartbeat_director_real_weight{protocol=\"tcp\",real=\"198.18.0.23:80\"," + v + "} 0.0",
                "jheartbeat_director_real_check_up{protocol=\"tcp\",real=\"198.18.0.21:80\"," + v + "} 1.0",
                "jheartbeat_director_real_check_up{protocol=\"tcp\",real=\"198.18.0.22:80\"," + v + "} 0.0",
                "jheartbeat_director_real_connections{protocol=\"tcp\",real=\"198.18.0.21:80\",state=\"active\","
                        + v + "} 7.0",
                "jheartbeat_director_real_connections{protocol=\"tcp\",real=\"198.18.0.21:80\",state=\"inactive\","
                        + v + "} 3.0");
    }

    @Test
    void aDirectorThatDoesNotAnswerIsDownWithNothingElse() throws Exception {
        String text = ClusterMetricsTest.text(DirectorMetrics.of(Optional.empty()));
        assertThat(text.lines().filter(l -> !l.startsWith("#"))).containsExactly("jheartbeat_director_up 0.0");
    }
}
