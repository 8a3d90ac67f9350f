package org.jheartbeat.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.CommandLines;
import org.jheartbeat.export.ExportFixtures.Fixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code hb export pacemaker --unmanaged}: the CIB for a Pacemaker cluster started beside a running jheartbeat
 * pair (docs/migrate-to-pacemaker.md). Every group is {@code is-managed=false} in cib.xml, pcs.sh and crm.txt,
 * STONITH devices and clones are not; the checks still place every group (they run on the managed CIB); and,
 * where crm_simulate is installed, Pacemaker given that CIB with both nodes online schedules no start, while the
 * managed CIB starts every group (so the attribute, not the scenario, keeps the groups stopped).
 * PacemakerMigrationDrillIT runs the whole procedure on real clusters.
 */
class UnmanagedExportTest {
    @TempDir
    Path tmp;

    private static Fixture stonithAndPing() throws Exception {
        return ExportFixtures.all().stream().filter(f -> f.name().contains("STONITH")).findFirst().orElseThrow();
    }

    private String[] run(Fixture f, Path out, String format, boolean unmanaged) throws Exception {
        Path cfg = f.writeTo(Files.createDirectories(tmp.resolve("cfg-" + format + unmanaged)));
        List<String> args = new ArrayList<>(List.of("export", "pacemaker", "--config-dir", cfg.toString(),
                "--out", out.toString(), "--format", format));
        if (unmanaged) {
            args.add("--unmanaged");
        }
        f.addresses().forEach((n, a) -> args.add("--node-address=" + n + "=" + String.join(",", a)));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = CommandLines.newCommandLine();
        cl.setOut(new PrintWriter(o, true));
        cl.setErr(new PrintWriter(e, true));
        int code = cl.execute(args.toArray(String[]::new));
        assertThat(code).as("stdout:%n%s%nstderr:%n%s", o, e).isZero();
        return new String[] {o.toString(), e.toString()};
    }

    @Test
    void everyGroupIsWrittenUnmanagedInAllThreeFormsAndFencingStaysManaged() throws Exception {
        Fixture f = stonithAndPing();
        Path crm = tmp.resolve("crm");
        String[] printed = run(f, crm, "crmsh", true);
        assertThat(printed[0]).contains("is-managed=false").contains("--delete-parameter is-managed")
                .contains("docs/migrate-to-pacemaker.md");
        String cib = Files.readString(crm.resolve("cib.xml"));
        Cib model = f.export(Files.createDirectories(tmp.resolve("model"))).cib();
        assertThat(model.groups()).isNotEmpty();
        for (Cib.Group g : model.groups()) {
            assertThat(cib).contains("<group id=\"" + g.id() + "\">\n        <meta_attributes id=\"" + g.id()
                    + "-meta_attributes\">\n          <nvpair id=\"" + g.id()
                    + "-meta_attributes-is-managed\" name=\"is-managed\" value=\"false\"/>");
            assertThat(Files.readString(crm.resolve("crm.txt"))).containsPattern("(?m)^group " + g.id()
                    + " .* meta is-managed=false$");
        }
        assertThat(cib.split("name=\"is-managed\"", -1)).as("one per group, none on STONITH or clones")
                .hasSize(model.groups().size() + 1);
        assertThat(model.fencing()).as("the fixture has a STONITH device").isNotEmpty();

        Path pcs = tmp.resolve("pcs");
        run(f, pcs, "pcs", true);
        for (Cib.Group g : model.groups()) {
            assertThat(Files.readString(pcs.resolve("pcs.sh"))).contains("pcs -f \"$f\" resource meta " + g.id()
                    + " is-managed=false\n");
        }
        Path plain = tmp.resolve("plain");
        String[] managed = run(f, plain, "crmsh", false);
        assertThat(Files.readString(plain.resolve("cib.xml"))).doesNotContain("is-managed");
        assertThat(Files.readString(plain.resolve("crm.txt"))).doesNotContain("is-managed");
        assertThat(managed[0]).doesNotContain("is-managed");
    }

    @Test
    void pacemakerStartsNoUnmanagedGroupAndEveryManagedOne() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/crm_simulate")), "crm_simulate is not installed");
        Fixture f = ExportFixtures.all().stream().filter(x -> x.name().equals("lab active-active")).findFirst()
                .orElseThrow();
        Cib cib = f.export(Files.createDirectories(tmp.resolve("aa"))).cib();
        CibXml.Scenario both = new CibXml.Scenario("both nodes online", Set.of("node1", "node2"), List.of());
        String unmanaged = simulate(CibXml.render(cib.withGroupsUnmanaged(), both));
        String managed = simulate(CibXml.render(cib, both));
        for (Cib.Group g : cib.groups()) {
            for (Cib.Primitive p : g.members()) {
                assertThat(managed).as(managed).containsPattern("\\* Start\\s+" + java.util.regex.Pattern.quote(p.id())
                        + "\\s");
                assertThat(unmanaged).as(unmanaged).doesNotContainPattern("\\* Start\\s+"
                        + java.util.regex.Pattern.quote(p.id()) + "\\s");
                assertThat(unmanaged).containsPattern(java.util.regex.Pattern.quote(p.id())
                        + "\\s+\\([^)]*\\):\\s+Stopped \\(unmanaged\\)");
            }
        }
    }

    private String simulate(String cibXml) throws Exception {
        Path file = Files.createTempFile(tmp, "cib", ".xml");
        Files.writeString(file, cibXml);
        Process p = new ProcessBuilder("crm_simulate", "--simulate", "--xml-file", file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("crm_simulate hung").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
