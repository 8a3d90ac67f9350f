package org.jheartbeat.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jheartbeat.export.Cib.Group;
import org.jheartbeat.export.Cib.Primitive;
import org.jheartbeat.export.ExportFixtures.Fixture;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.jheartbeat.core.exec.ProcessResult;
import org.jheartbeat.core.exec.ProcessSpec;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every export fixture (the seed's active/active example, the lab's configurations, the field
 * forms) against Pacemaker 2.1.5's own tools (package pacemaker-cli-utils, scripts/setup.sh):
 * {@code crm_verify --xml-file} accepts the CIB with no message in each scenario, and
 * {@code crm_simulate --simulate} prints every group member {@code Started} on the preferred node
 * with both nodes online and on the survivor with one node offline. Then {@code hb export pacemaker}
 * itself on two fixtures: its checks ({@link PacemakerCheck}, including {@code corosync -t} on the
 * corosync.conf) pass and it writes the files. No daemon runs; each tool call takes well under a second.
 */
class PacemakerExportIT {
    @TempDir
    Path tmp;

    static Stream<Fixture> fixtures() throws Exception {
        return ExportFixtures.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void crmVerifyAcceptsAndCrmSimulatePlacesEveryGroup(Fixture f) throws Exception {
        assertThat(PacemakerCheck.find("crm_verify")).as("crm_verify (scripts/setup.sh installs pacemaker-cli-utils)")
                .isPresent();
        Path cfg = Files.createDirectories(tmp.resolve("cfg"));
        ExportResult r = f.export(cfg);
        assertThat(r.cib().groups()).isNotEmpty();
        OsProcessRunner runner = new OsProcessRunner();
        for (Placement.Expectation e : Placement.expectations(r.cib())) {
            Path file = tmp.resolve(e.scenario().name().replace(' ', '-') + ".xml");
            Files.writeString(file, CibXml.render(r.cib(), e.scenario()), StandardCharsets.UTF_8);
            ProcessResult v = runner.run(ProcessSpec.of(PacemakerCheck.TOOL_TIMEOUT, "crm_verify", "--xml-file",
                    file.toString()));
            assertThat(v.exitCode()).as("crm_verify %s: %s%s", e.scenario().name(), v.stdout(), v.stderr()).isZero();
            assertThat((v.stdout() + v.stderr()).strip()).as("crm_verify messages").isEmpty();
            ProcessResult s = runner.run(ProcessSpec.of(PacemakerCheck.TOOL_TIMEOUT, "crm_simulate", "--xml-file",
                    file.toString(), "--simulate"));
            assertThat(s.exitCode()).as("crm_simulate %s: %s", e.scenario().name(), s.stderr()).isZero();
            String revised = s.stdout().substring(s.stdout().indexOf("Revised Cluster Status:"));
            for (Group g : r.cib().groups()) {
                String node = e.expected().get(g.id());
                assertThat(revised).as("%s (%s)", g.id(), e.scenario().name()).contains("Resource Group: " + g.id() + ":");
                for (Primitive p : g.members()) {
                    Pattern started = Pattern.compile("\\* " + Pattern.quote(p.id()) + "\\s+\\("
                            + Pattern.quote(p.agent()) + "\\):\\s+Started " + Pattern.quote(node) + "\\s*$",
                            Pattern.MULTILINE);
                    assertThat(started.matcher(revised).find())
                            .as("%s: %s Started %s in crm_simulate's output:%n%s", e.scenario().name(), p.id(), node,
                                    revised).isTrue();
                }
            }
            System.out.printf("%s / %s: %d group(s) placed as expected%n", f.name(), e.scenario().name(),
                    r.cib().groups().size());
        }
    }

    /** The command path is the same for every fixture: two of them (CI time) through all checks. */
    static Stream<Fixture> commandFixtures() throws Exception {
        return ExportFixtures.all().stream().filter(f -> f.name().startsWith("seed") || f.name().startsWith("field"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandFixtures")
    void theCommandWritesTheCheckedFiles(Fixture f) throws Exception {
        Path cfg = f.writeTo(Files.createDirectories(tmp.resolve("cfg")));
        Path out = tmp.resolve("out");
        List<String> args = new java.util.ArrayList<>(List.of("export", "pacemaker", "--config-dir", cfg.toString(),
                "--out", out.toString(), "--format", "pcs"));
        f.addresses().forEach((n, a) -> args.add("--node-address=" + n + "=" + String.join(",", a)));
        java.io.StringWriter o = new java.io.StringWriter();
        java.io.StringWriter e = new java.io.StringWriter();
        picocli.CommandLine cl = org.jheartbeat.cli.CommandLines.newCommandLine();
        cl.setOut(new java.io.PrintWriter(o, true));
        cl.setErr(new java.io.PrintWriter(e, true));
        int code = cl.execute(args.toArray(String[]::new));
        assertThat(code).as("stdout:%n%s%nstderr:%n%s", o, e).isZero();
        assertThat(o.toString()).contains("check: crm_simulate --simulate (both nodes online)",
                "check: crm_simulate --simulate (node1 offline)", "check: crm_simulate --simulate (node2 offline)");
        // corosync -t needs a private UTS namespace: as root (CI), it must parse the file
        assertThat(o.toString()).contains("root".equals(System.getProperty("user.name"))
                ? "check: corosync -t (as node1): corosync.conf parsed" : "check: corosync -t: skipped");
        assertThat(out.resolve("corosync.conf")).exists();
        assertThat(out.resolve("cib.xml")).exists();
        assertThat(out.resolve("pcs.sh")).isExecutable();
        assertThat(Files.readString(out.resolve("export-report.txt"))).contains("Every source line");
    }
}
