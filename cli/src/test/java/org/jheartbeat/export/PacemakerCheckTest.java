package org.jheartbeat.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.jheartbeat.core.exec.OsProcessRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check's verdicts with stand-in tools (shell scripts named crm_verify and crm_simulate that
 * print what Pacemaker 2.1.5 prints), so that a missing tool, a crm_verify complaint and a wrong
 * placement are each refused; the real tools run in {@link PacemakerExportIT}.
 */
class PacemakerCheckTest {
    @TempDir
    Path tmp;

    private Cib cib() throws Exception {
        return ExportFixtures.lab("lab", "node1 198.18.0.100/24/eth0 labweb\n", "resource.d/labweb",
                ExportFixtures.LABWEB).export(Files.createDirectories(tmp.resolve("cfg"))).cib();
    }

    private Path tools(String verifyBody, String simulateBody) throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String[] t : new String[][] {{"crm_verify", verifyBody}, {"crm_simulate", simulateBody}}) {
            Path p = bin.resolve(t[0]);
            Files.writeString(p, "#!/bin/sh\n" + t[1] + "\n");
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        return bin;
    }

    private PacemakerCheck.Outcome check(List<Path> dirs) throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        return new PacemakerCheck(new OsProcessRunner(), work, dirs).check(cib(), "");
    }

    private static String simulate(String node) {
        return "cat <<'X'\nRevised Cluster Status:\n  * Full List of Resources:\n    * Resource Group: grp-ip-198.18.0.100:\n"
                + "      * ip-198.18.0.100\t(ocf:heartbeat:IPaddr2):\t Started " + node + "\n"
                + "      * labweb\t(ocf:jheartbeat:hb-script):\t Started " + node + "\nX";
    }

    @Test
    void aMissingToolIsNamedWithThePackageAndNoVerify() throws Exception {
        PacemakerCheck.Outcome o = check(List.of(Files.createDirectories(tmp.resolve("empty"))));
        assertThat(o.ok()).isFalse();
        assertThat(o.problems()).singleElement().asString().contains("crm_verify is not installed")
                .contains("pacemaker-cli-utils").contains("--no-verify");
    }

    @Test
    void aCrmVerifyMessageFailsTheCheck() throws Exception {
        PacemakerCheck.Outcome o = check(List.of(tools("echo 'error: Resource start-up disabled' >&2; exit 78",
                simulate("node1"))));
        assertThat(o.ok()).isFalse();
        assertThat(o.problems()).first().asString().startsWith("crm_verify (both nodes online) exit 78")
                .contains("Resource start-up disabled");
    }

    @Test
    void aGroupPlacedOnTheWrongNodeFailsTheCheck() throws Exception {
        // the stand-in always answers node1: right with both online and with node2 down, wrong with node1 down
        PacemakerCheck.Outcome o = check(List.of(tools("exit 0", simulate("node1"))));
        assertThat(o.ok()).isFalse();
        assertThat(o.log()).anyMatch(l -> l.startsWith("crm_simulate --simulate (both nodes online): "
                + "grp-ip-198.18.0.100 on node1"));
        assertThat(o.problems()).singleElement().asString().startsWith("crm_simulate (node1 offline)")
                .contains("ip-198.18.0.100 is on node1, expected on node2");
    }
}
