package org.jheartbeat.cli.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.resources.monitor.MonitorSettings;
import org.jheartbeat.sync.backup.BackupResult;
import org.jheartbeat.sync.backup.BackupState;
import org.jheartbeat.sync.backup.DiskState;
import org.jheartbeat.sync.replication.JobResult;
import org.jheartbeat.sync.replication.JobState;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The Prometheus files the .deb ships ({@code packaging/src/prometheus}, installed under
 * {@code /usr/share/jheartbeat/prometheus/}) against a real scrape of {@link ClusterMetrics} and of the director's
 * {@link DirectorMetrics}: every metric
 * the alert rules, their promtool unit tests and the Grafana dashboard name is one the endpoint exposes,
 * with the labels the endpoint gives it; the rules pass {@code promtool check rules} and each alert
 * fires in {@code promtool test rules} (Debian's {@code prometheus} package, scripts/setup.sh).
 */
class PrometheusFilesTest {
    static final Path DIR = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize()
            .resolve("packaging/src/prometheus");
    static final Path RULES = DIR.resolve("jheartbeat-alerts.yml");
    static final Path RULES_TEST = DIR.resolve("jheartbeat-alerts.test.yml");
    static final Path DASHBOARD = DIR.resolve("jheartbeat-dashboard.json");
    private static final Pattern NAME = Pattern.compile("\\bjheartbeat_[a-z_]+\\b");
    private static final Pattern SAMPLE = Pattern.compile("^([a-z_]+)(?:\\{(.*)})? \\S+$");

    /** Metric name → the label names it has, from one scrape in which every family is present. */
    static Map<String, Set<String>> scrape() throws IOException {
        JobState job = new JobState("web", Optional.of(ClusterMetricsTest.NOW.minusSeconds(70)),
                Optional.of(ClusterMetricsTest.NOW.minusSeconds(60)), JobResult.OK, "ok", 10, 1, 5, 1,
                Optional.of(ClusterMetricsTest.NOW.minusSeconds(70)), Map.of());
        BackupState backup = new BackupState("nightly", DiskState.MISSING, BackupResult.FAILED,
                Optional.of(ClusterMetricsTest.NOW.minusSeconds(3700)), Optional.of(ClusterMetricsTest.NOW.minusSeconds(3600)),
                "disk gone", 4, Optional.of("2026-11-30"), 0, 0);
        var watch = new GroupMonitor.ResourceWatch("lsb:lighttpd", MonitorSettings.DEFAULT, 2, "not running", Duration.ZERO);
        String text = ClusterMetricsTest.text(ClusterMetrics.of(new ClusterMetrics.Inputs(
                Optional.of(ClusterMetricsTest.observation("active", "up")), List.of(job),
                Map.of("web", Optional.of(Duration.ofSeconds(65))), List.of(backup), 5, 9, ClusterMetricsTest.NOW,
                Map.of("198.18.0.100", List.of(watch)))))
                // the director's endpoint (hb lvs daemon) is another target; its names must not clash with these
                + ClusterMetricsTest.text(DirectorMetrics.of(Optional.of(DirectorMetricsTest.sample())));
        Map<String, Set<String>> out = new TreeMap<>();
        Set<String> seen = new java.util.HashSet<>();
        for (String line : text.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).toList()) {
            Matcher m = SAMPLE.matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            assertThat(seen.add(line.substring(0, line.lastIndexOf(' ')))).as("one series %s", line).isTrue();
            Set<String> labels = out.computeIfAbsent(m.group(1), k -> new TreeSet<>());
            if (m.group(2) != null) {
                labels.addAll(labelNames(m.group(2)));
            }
        }
        return out;
    }

    private static Set<String> labelNames(String labels) {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile("([a-z_]+)=\"(?:[^\"\\\\]|\\\\.)*\"").matcher(labels);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void everyMetricTheRulesAndTheDashboardNameIsInARealScrape() throws IOException {
        Map<String, Set<String>> scrape = scrape();
        Set<String> used = new TreeSet<>();
        used.addAll(names(Files.readString(RULES)));
        List<String> exprs = dashboardExpressions();
        assertThat(exprs).as("dashboard queries").hasSizeGreaterThan(10);
        exprs.forEach(e -> used.addAll(names(e)));
        assertThat(used).as("metric names in the rules and the dashboard").isNotEmpty();
        assertThat(scrape.keySet()).as("families of a real scrape").containsAll(used);
        // the dashboard shows the states the rules alert on
        assertThat(String.join("\n", exprs)).contains("jheartbeat_node_status").contains("jheartbeat_link_status")
                .contains("jheartbeat_group_running_on").contains("jheartbeat_fencing_total");
        assertThat(String.join("\n", exprs)).contains("jheartbeat_director_real_up").contains("jheartbeat_director_up");
    }

    @Test
    void thePromtoolTestInputsHaveTheLabelsOfARealScrape() throws IOException {
        Map<String, Set<String>> scrape = scrape();
        Map<String, Object> tests = new Yaml().load(Files.readString(RULES_TEST));
        int series = 0;
        for (Object t : (List<?>) tests.get("tests")) {
            for (Object s : (List<?>) ((Map<?, ?>) t).get("input_series")) {
                String spec = (String) ((Map<?, ?>) s).get("series");
                Matcher m = Pattern.compile("^([a-z_]+)\\{(.*)}$").matcher(spec);
                assertThat(m.matches()).as(spec).isTrue();
                Set<String> labels = labelNames(m.group(2));
                labels.removeAll(Set.of("instance", "job")); // Prometheus adds these at scrape time
                assertThat(scrape).as("a real scrape has %s", m.group(1)).containsKey(m.group(1));
                assertThat(labels).as("labels of %s", spec).isEqualTo(scrape.get(m.group(1)));
                series++;
            }
        }
        assertThat(series).isGreaterThan(10);
    }

    @Test
    void theRulesAlertOnWhatTheIssueAsksFor() throws IOException {
        Map<String, Object> rules = new Yaml().load(Files.readString(RULES));
        List<String> alerts = new ArrayList<>();
        for (Object g : (List<?>) rules.get("groups")) {
            for (Object r : (List<?>) ((Map<?, ?>) g).get("rules")) {
                alerts.add((String) ((Map<?, ?>) r).get("alert"));
            }
        }
        assertThat(alerts).contains("JheartbeatNodeDead", "JheartbeatLinkDown", "JheartbeatGroupFailed",
                "JheartbeatFenceFailed", "JheartbeatDirectorRealDown", "JheartbeatDirectorDown");
        // each alert is proved to fire by the promtool unit tests
        String tests = Files.readString(RULES_TEST);
        alerts.forEach(a -> assertThat(tests).as("a promtool test of %s", a).contains("alertname: " + a + "\n"));
    }

    @Test
    void promtoolChecksTheRulesAndEachAlertFiresOnItsInput() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool (Debian package prometheus) installed");
        String check = run(List.of("/usr/bin/promtool", "check", "rules", RULES.toString()));
        assertThat(check).contains("SUCCESS: 9 rules found");
        String test = run(List.of("/usr/bin/promtool", "test", "rules", RULES_TEST.toString()));
        assertThat(test).contains("SUCCESS");
    }

    private static String run(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).directory(DIR.toFile()).start();
        // a hang bound, not a figure
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", argv).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("%s:\n%s", argv, out).isZero();
        return out;
    }

    private static Set<String> names(String text) {
        Set<String> out = new TreeSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    /** Every {@code expr} string of the dashboard, read with Jackson (so the file must be valid JSON). */
    static List<String> dashboardExpressions() throws IOException {
        List<String> out = new ArrayList<>();
        try (JsonParser p = new JsonFactory().createParser(DASHBOARD.toFile())) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME && (p.currentName().equals("expr") || p.currentName().equals("definition"))) {
                    p.nextToken();
                    out.add(p.getText());
                }
            }
        }
        return out;
    }
}
