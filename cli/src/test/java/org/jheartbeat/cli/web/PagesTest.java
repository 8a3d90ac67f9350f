package org.jheartbeat.cli.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The pages rendered from a fixed status and journal, as the browser gets them. */
class PagesTest {
    static final String STATUS = """
            {"schema":"jheartbeat.status/1","node":"node2","generation":3,"takeover_state":"idle","rsc_status":"all",
             "nodes":[{"name":"node1","status":"dead","local":false,"type":"normal","links":{"eth1":"dead","eth2":"dead"}},
                      {"name":"node2","status":"active","local":true,"type":"normal","links":{}}],
             "groups":[{"key":"IPaddr::198.18.0.100","preferred_node":"node1","state_here":"running","running_on":"node2",
                        "running_on_unconfirmed":null,"placement":"taken over: node1 is dead","resources":"IPaddr::198.18.0.100 labweb",
                        "problem":null,"disputed":null}],
             "fencing":"node1 fenced by lab-dummy","config":"same","bad_packets":0,"internal_errors":0,
             "maintenance":{"setting":"off","version":0,"cluster":false,"groups":{}},
             "monitor":[{"group":"IPaddr::198.18.0.100","resource":"labweb","interval_ms":1000,"fail_count":1,
                         "restart_limit":3,"window_ms":60000,"last_failure":"exit 7 <not running>","last_failure_age_ms":5}]}
            """;

    static Snapshot snapshot() {
        return new Snapshot("node2", Optional.of(Sources.json(STATUS)), "",
                Timeline.merge(TimelineTest.NODE1, TimelineTest.NODE2), "", "node1", "ssh to node1: connection refused", 0,
                Optional.empty(), "no director is configured here (ldirectord.cf)", TimelineTest.T + 120_000);
    }

    @Test
    void theGlanceShowsNodesLinksGroupsWhyMonitorAndTheCaveat() {
        String html = GlancePage.body(snapshot(), true);
        assertThat(html).contains("<b id=\"local-node\">node2</b>")
                .contains("<td class=\"bad\">dead</td>").contains("eth1: dead")
                .contains("IPaddr::198.18.0.100 labweb").contains("<td class=\"runs-on\">node2</td>")
                .contains("taken over: node1 is dead")
                .contains("1 of 3").contains("exit 7 &lt;not running&gt;") // escaped
                .contains("id=\"caveat\"").contains("node1 fenced by lab-dummy")
                .contains("id=\"peer-error\"").contains("ssh to node1: connection refused")
                .contains("id=\"act-standby\"").contains("/confirm?action=maintenance-on");
    }

    @Test
    void aReadOnlyViewerGetsNoActionButton() {
        String html = GlancePage.body(snapshot(), false);
        assertThat(html).doesNotContain("act-").doesNotContain("/confirm").contains("id=\"read-only\"");
    }

    @Test
    void theTimelineDrawsTheFailoverSpanWithItsStepsInOrderAndDuration() {
        Snapshot s = snapshot();
        TimelinePage.Window w = TimelinePage.Window.of(Map.of("window", List.of("15m")), s.nowMillis(), ZoneOffset.UTC);
        String html = TimelinePage.body(s, w, ZoneOffset.UTC);
        assertThat(html).contains("<li class=\"failover\" data-duration-ms=\"2900\">")
                .contains("node2 declared node1 dead at").contains("after 3.0 s of silence")
                .contains("took 2.9 s").contains("<rect class=\"span\"");
        int dead = html.indexOf("data-step=\"node-dead\"");
        int fenced = html.indexOf("data-step=\"fenced\"");
        int started = html.indexOf("data-step=\"started\"");
        assertThat(dead).isPositive().isLessThan(fenced);
        assertThat(fenced).isLessThan(started);
        // a window that ends before the failover shows none
        TimelinePage.Window before = TimelinePage.Window.of(Map.of("from", List.of("2020-01-01T00:00"),
                "to", List.of("2020-01-02T00:00")), s.nowMillis(), ZoneOffset.UTC);
        assertThat(TimelinePage.body(s, before, ZoneOffset.UTC)).contains("0 events, 0 failovers")
                .doesNotContain("class=\"failover\"");
    }

    @Test
    void aWindowNotUnderstoodIsSaidSoAndTheLastHourShown() {
        Snapshot s = snapshot();
        long hour = 3_600_000L;
        Map<String, String> bad = new java.util.LinkedHashMap<>();
        bad.put("window=abc", "The window [abc] was not understood: it is not one of 1m, 5m, 15m, 1h, 12h, 24h, 7d.");
        bad.put("window=99999d", "The window [99999d] was not understood");
        bad.put("window=30s", "The window [30s] was not understood");
        bad.put("from=garbage", "[garbage] is not a date and time like 2026-12-06T03:00");
        bad.put("from=2026-12-06T05:00&to=2026-12-06T04:00", "from 2026-12-06T05:00 is not before to 2026-12-06T04:00.");
        bad.put("from=2026-12-06T04:00&to=soon", "[soon] is not a date and time");
        bad.put("to=2026-12-06T04:00", "to 2026-12-06T04:00 was given without from.");
        for (Map.Entry<String, String> e : bad.entrySet()) {
            Map<String, List<String>> q = new java.util.HashMap<>();
            for (String kv : e.getKey().split("&")) {
                q.put(kv.substring(0, kv.indexOf('=')), List.of(kv.substring(kv.indexOf('=') + 1)));
            }
            TimelinePage.Window w = TimelinePage.Window.of(q, s.nowMillis(), ZoneOffset.UTC);
            assertThat(w.to() - w.from()).as(e.getKey()).isEqualTo(hour + 1);
            assertThat(w.notice()).as(e.getKey()).contains(e.getValue()).endsWith("Showing the last hour.");
            assertThat(TimelinePage.body(s, w, ZoneOffset.UTC)).as(e.getKey())
                    .contains("<p class=\"warn\" id=\"window-notice\">").contains("Showing the last hour.");
        }
        // a valid window beside a broken range is kept, and said so
        TimelinePage.Window kept = TimelinePage.Window.of(Map.of("from", List.of("garbage"), "window", List.of("15m")),
                s.nowMillis(), ZoneOffset.UTC);
        assertThat(kept.label()).isEqualTo("15m");
        assertThat(kept.notice()).endsWith("Showing the last 15m.");
        // what the page offers is taken without a word
        for (Map<String, List<String>> ok : List.of(Map.<String, List<String>>of(), Map.of("window", List.of("7d")),
                Map.of("from", List.of("2026-12-06T03:00"), "to", List.of("2026-12-06T04:00:15")))) {
            TimelinePage.Window w = TimelinePage.Window.of(ok, s.nowMillis(), ZoneOffset.UTC);
            assertThat(w.notice()).as(ok.toString()).isEmpty();
            assertThat(TimelinePage.body(s, w, ZoneOffset.UTC)).doesNotContain("window-notice");
        }
    }

    @Test
    void theTimelineDrawsTheServedStepLastAndNamesAGroupWithoutOne() {
        Snapshot s = snapshot();
        Snapshot served = new Snapshot(s.local(), s.status(), s.statusError(), Timeline.merge(TimelineTest.NODE1,
                TimelineTest.NODE2_SERVED), "", s.peer(), "", 0, s.director(), s.directorError(), s.nowMillis());
        String html = TimelinePage.body(served, TimelinePage.Window.of(Map.of("window", List.of("15m")), s.nowMillis(),
                ZoneOffset.UTC), ZoneOffset.UTC);
        assertThat(html).contains("<li class=\"failover\" data-duration-ms=\"4400\">").contains("took 4.4 s")
                .contains("<span class=\"step\" data-step=\"served\">served IPaddr::198.18.0.100 +4.4 s</span>")
                .contains("no served step for labweb").contains("<rect class=\"mark served\"");
        assertThat(html.indexOf("data-step=\"served\"")).isGreaterThan(html.lastIndexOf("data-step=\"started\""));
        assertThat(html.indexOf("data-step=\"started\"")).isGreaterThan(html.indexOf("data-step=\"fenced\""));
    }

    @Test
    void theDirectorShowsRealsWithWeightAndCheckState() {
        Map<String, Object> table = Sources.json("""
                {"services":[{"protocol":"tcp","address":"198.18.0.200","port":80,"scheduler":"wrr",
                  "reals":[{"address":"198.18.1.1","port":80,"forward":"gate","weight":5,"activeConns":2,"inactConns":7},
                           {"address":"198.18.1.2","port":80,"forward":"gate","weight":0,"activeConns":0,"inactConns":0}]}]}
                """);
        Snapshot s = snapshot();
        Snapshot d = new Snapshot(s.local(), s.status(), "", s.events(), "", s.peer(), "", 0, Optional.of(table), "",
                s.nowMillis());
        assertThat(DirectorPage.body(d)).contains("tcp 198.18.0.200:80").contains("198.18.1.1:80")
                .contains("<td class=\"good\">in</td>").contains("<td class=\"bad\">out</td>").contains("<td>7</td>");
        assertThat(DirectorPage.body(s)).contains("id=\"director-none\"").contains("no director is configured");
    }

    @Test
    void aConfirmationSaysWhatWillMove() {
        Map<String, Object> st = Sources.json(STATUS);
        assertThat(Actions.consequences(Actions.Action.STANDBY, "node2", "node1", st))
                .containsExactly("IPaddr::198.18.0.100 labweb moves from node2 to node1");
        assertThat(Actions.consequences(Actions.Action.FAILBACK, "node2", "node1", st))
                .containsExactly("IPaddr::198.18.0.100 labweb goes back to its home node node1");
        assertThat(Actions.consequences(Actions.Action.TAKEOVER, "node2", "node1", st))
                .containsExactly("nothing moves: no group is where this action would take it from");
        assertThat(Actions.Action.FAILBACK.request().toWire()).isEqualTo("standby foreign 120");
    }
}
