package org.jheartbeat.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jheartbeat.cli.error.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hb export pacemaker} and secrets: the files holding STONITH passwords are readable by their
 * owner only, the report holds no password, and every word of pcs.sh that comes from the user's
 * files reaches pcs as one argument, whatever shell syntax it contains (real files, real sh, a
 * stub {@code pcs} on PATH that records its argv).
 */
class ExportSecretsTest {
    private static final String PASSWORD = "s3cretNutPassw0rd";

    @TempDir
    Path dir;

    private Path config(String node1, String haresources) throws Exception {
        Path cfg = Files.createDirectories(dir.resolve("cfg"));
        Files.writeString(cfg.resolve("ha.cf"), "keepalive 1\ndeadtime 10\nudpport 694\nucast eth1 198.18.1.2\n"
                + "stonith_host " + node1 + " nut node2 ups1@198.18.0.5 admin " + PASSWORD + "\n"
                + "auto_failback on\nnode " + node1 + "\nnode node2\n");
        Files.writeString(cfg.resolve("haresources"), haresources);
        Path keys = cfg.resolve("authkeys");
        Files.writeString(keys, "auth 1\n1 sha1 exporttestsecret\n");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        return cfg;
    }

    private HbRun export(Path cfg, Path out, String node1, String format) {
        return HbRun.hb("export", "pacemaker", "--config-dir", cfg.toString(), "--out", out.toString(), "--no-verify",
                "--format", format, "--node-address", node1 + "=198.18.1.1", "--node-address", "node2=198.18.1.2");
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void filesWithStonithPasswordsAreOwnerOnlyAndTheReportHoldsNoPassword() throws Exception {
        Path cfg = config("node1", "node1 198.18.0.100/24/eth0\n");
        Path out = dir.resolve("out");
        HbRun r = export(cfg, out, "node1", "pcs");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out.resolve("cib.xml"))).contains(PASSWORD);
        assertThat(mode(out.resolve("cib.xml"))).isEqualTo("rw-------");
        assertThat(mode(out.resolve("pcs.sh"))).isEqualTo("rwx------");
        assertThat(mode(out.resolve("corosync.conf"))).isEqualTo("rw-r--r--");
        String report = Files.readString(out.resolve("export-report.txt"));
        assertThat(report).doesNotContain(PASSWORD).doesNotContain("exporttestsecret")
                .contains("stonith_host node1 nut (4 parameter(s) not shown").contains("mode 600");
        assertThat(r.out() + r.err()).doesNotContain(PASSWORD);

        // a second export over the first keeps the modes (the files are replaced, not rewritten)
        Files.setPosixFilePermissions(out.resolve("cib.xml"), PosixFilePermissions.fromString("rw-r--r--"));
        HbRun again = export(cfg, out, "node1", "crmsh");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(mode(out.resolve("cib.xml"))).isEqualTo("rw-------");
        assertThat(mode(out.resolve("crm.txt"))).isEqualTo("rw-------");
    }

    @Test
    void shellSyntaxInANodeNameOrParameterReachesPcsAsOneArgumentAndRunsNothing() throws Exception {
        Path markers = Files.createTempDirectory(dir, "mark");
        String marker = markers.resolve("x").toString();
        assertThat(marker).isEqualTo(marker.toLowerCase(java.util.Locale.ROOT)); // node names are lowercased
        // node names are lowercased, so the command is a bare redirection: $(>FILE) creates FILE
        String node1 = "a$(>" + marker + ")";
        String odd = "it's`>" + marker + "y`\"$HOME\"$(>" + marker + "z)";
        Path cfg = config(node1, node1 + " 198.18.0.100/24/eth0 labweb::" + odd + "\n");
        Files.createDirectories(cfg.resolve("resource.d"));
        Path script = cfg.resolve("resource.d/labweb");
        Files.writeString(script, "#!/bin/sh\necho running\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path out = dir.resolve("out");
        HbRun r = export(cfg, out, node1, "pcs");
        assertThat(r.code()).as(r.err()).isZero();
        Path pcsSh = out.resolve("pcs.sh");

        assertThat(run(List.of("sh", "-n", pcsSh.toString()), null)).isZero();
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path argv = dir.resolve("argv");
        Path stub = bin.resolve("pcs");
        Files.writeString(stub, "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> '" + argv + "'\n"
                + "echo --- >> '" + argv + "'\n");
        Files.setPosixFilePermissions(stub, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cib = dir.resolve("cib-file.xml");
        Files.writeString(cib, "<cib/>");
        ProcessBuilder pb = new ProcessBuilder("sh", pcsSh.toString());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("CIB_FILE", cib.toString());
        assertThat(run(null, pb)).isZero();

        List<String> words = Files.readAllLines(argv, StandardCharsets.UTF_8);
        assertThat(words).contains("stonith", "external/nut", "password=" + PASSWORD, "hostname=node2")
                .contains(node1 + "=100")
                .anySatisfy(w -> assertThat(w).endsWith(odd));
        List<List<String>> calls = new ArrayList<>();
        List<String> call = new ArrayList<>();
        for (String w : words) {
            if (w.equals("---")) {
                calls.add(call);
                call = new ArrayList<>();
            } else {
                call.add(w);
            }
        }
        assertThat(calls).anySatisfy(c -> assertThat(c).containsSequence("constraint", "location")
                .anySatisfy(w -> assertThat(w).startsWith(node1)));
        assertThat(markers.resolve("x")).doesNotExist();
        try (var s = Files.list(markers)) {
            assertThat(s.toList()).as("files the script's words created").isEmpty();
        }
    }

    @Test
    void crmTxtRefusesANodeNameItCannotHoldAndWritesNothing() throws Exception {
        String node1 = "a$(>x)";
        Path cfg = config(node1, node1 + " 198.18.0.100/24/eth0\n");
        Path out = dir.resolve("out");
        HbRun r = export(cfg, out, node1, "crmsh");
        assertThat(r.code()).isEqualTo(ExitCodes.CONFIG);
        assertThat(r.err()).contains("crm.txt cannot hold the node name [" + node1 + "]").contains("--format pcs")
                .contains("nothing written").doesNotContain("Exception");
        assertThat(out).doesNotExist();
    }

    private static int run(List<String> cmd, ProcessBuilder given) throws Exception {
        ProcessBuilder pb = given != null ? given : new ProcessBuilder(cmd);
        pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("sh finished").isTrue();
        return p.exitValue();
    }
}
