package org.jheartbeat.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code hb config push} between the lab's two nodes over real ssh (each node runs its own sshd, see
 * lab/README.md): the dry run shows per file what would be overwritten and changes nothing; with
 * {@code --yes} node2 ends up with node1's files byte for byte, old copies as {@code .bak}, authkeys
 * mode 600; an unreachable peer is one clear line and exit 1.
 */
@Tag("root")
class ConfigPushIT {
    static final String ADDED_GROUP = "node2 198.18.0.101/24/eth0 labweb2";

    @Test
    void dryRunShowsTheDiffThenYesWritesNode2sFiles() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of())) {
            Path cfg1 = lab.configDir("node1");
            Path cfg2 = lab.configDir("node2");
            String ssh = lab.sshCommand();
            Files.writeString(cfg1.resolve("haresources"), ADDED_GROUP + "\n", java.nio.file.StandardOpenOption.APPEND);
            // node2's authkeys differs, and is too open: the push makes it node1's, mode 600
            Files.writeString(cfg2.resolve("authkeys"), "auth 1\n1 crc\n");
            Files.setPosixFilePermissions(cfg2.resolve("authkeys"), PosixFilePermissions.fromString("rw-r--r--"));
            byte[] haresources2Before = Files.readAllBytes(cfg2.resolve("haresources"));
            byte[] haCf2Before = Files.readAllBytes(cfg2.resolve("ha.cf"));

            long t0 = System.nanoTime();
            Lab.Result dry = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", cfg2.toString(), "--ssh", ssh, "--dry-run");
            System.out.println("config push --dry-run took " + (System.nanoTime() - t0) / 1_000_000 + " ms:\n"
                    + dry.output());
            assertThat(dry.code()).as(dry.output()).isZero();
            String where = "198.18.1.2:" + cfg2;
            assertThat(dry.output())
                    .contains("Pushing " + cfg1 + " to " + where + ":")
                    .contains("haresources  will be overwritten:\n--- " + where + "/haresources (now)\n+++ " + cfg1
                            + "/haresources (pushed)\n")
                    .contains("\n+" + ADDED_GROUP + "\n")
                    .contains("authkeys     will be overwritten (mode 644 -> 600):")
                    .contains("-1 crc\n+1 sha1 [key hidden, sha256 ")
                    .doesNotContain(Files.readString(cfg1.resolve("authkeys")).lines().skip(1).findFirst().orElseThrow()
                            .split(" ")[2])
                    .contains("ha.cf        will be overwritten:")
                    .contains("-ucast eth1 198.18.1.1\n-ucast eth0 198.18.0.1\n+ucast eth1 198.18.1.2\n+ucast eth0 198.18.0.2\n")
                    .contains("dry run: would write ha.cf, authkeys, haresources on " + where + "; nothing changed");
            assertThat(Files.readAllBytes(cfg2.resolve("haresources"))).isEqualTo(haresources2Before);
            assertThat(Files.readAllBytes(cfg2.resolve("ha.cf"))).isEqualTo(haCf2Before);
            assertThat(Files.readString(cfg2.resolve("authkeys"))).isEqualTo("auth 1\n1 crc\n");
            assertThat(cfg2.resolve("haresources.bak")).doesNotExist();

            // no terminal and no --yes: refused, nothing written
            Lab.Result noTty = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", cfg2.toString(), "--ssh", ssh);
            assertThat(noTty.code()).isEqualTo(64);
            assertThat(noTty.output()).contains("hb: config push: no terminal to ask for confirmation; pass --yes");
            assertThat(Files.readAllBytes(cfg2.resolve("haresources"))).isEqualTo(haresources2Before);

            t0 = System.nanoTime();
            Lab.Result yes = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", cfg2.toString(), "--ssh", ssh, "--yes");
            System.out.println("config push --yes took " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            assertThat(yes.code()).as(yes.output()).isZero();
            assertThat(yes.output()).contains("Wrote ha.cf, authkeys, haresources on " + where)
                    .contains("reads them when it restarts").contains("hb config diff");
            for (String f : List.of("ha.cf", "authkeys", "haresources")) {
                assertThat(Files.readAllBytes(cfg2.resolve(f))).as(f).isEqualTo(Files.readAllBytes(cfg1.resolve(f)));
                assertThat(Files.getPosixFilePermissions(cfg2.resolve(f))).as(f)
                        .isEqualTo(Files.getPosixFilePermissions(cfg1.resolve(f)));
            }
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cfg2.resolve("authkeys"))))
                    .isEqualTo("rw-------");
            assertThat(Files.readAllBytes(cfg2.resolve("haresources.bak"))).isEqualTo(haresources2Before);
            assertThat(Files.readAllBytes(cfg2.resolve("ha.cf.bak"))).isEqualTo(haCf2Before);
            assertThat(Files.readString(cfg2.resolve("authkeys.bak"))).isEqualTo("auth 1\n1 crc\n");
            try (var s = Files.list(cfg2)) {
                assertThat(s.map(p -> p.getFileName().toString())).as("no temporary file left")
                        .noneMatch(n -> n.contains("push-tmp"));
            }

            // again: nothing to push
            Lab.Result again = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", cfg2.toString(), "--ssh", ssh);
            assertThat(again.code()).as(again.output()).isZero();
            assertThat(again.output()).contains("Nothing to push: " + where + " has the same files.");

            // the peer's directory is missing
            Lab.Result noDir = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", "/srv/no-such-dir", "--ssh", ssh, "--yes");
            assertThat(noDir.code()).isEqualTo(1);
            assertThat(noDir.output().strip()).isEqualTo("hb: config push: directory /srv/no-such-dir does not exist on"
                    + " 198.18.1.2; create it there or pass --remote-dir DIR; nothing pushed");

            // an unreachable address: one line, exit 1
            t0 = System.nanoTime();
            Lab.Result gone = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.99",
                    "--remote-dir", cfg2.toString(), "--ssh", ssh, "--yes");
            System.out.println("unreachable peer reported after " + (System.nanoTime() - t0) / 1_000_000 + " ms: "
                    + gone.output().strip());
            assertThat(gone.code()).isEqualTo(1);
            assertThat(gone.output().strip().lines()).hasSize(1);
            assertThat(gone.output().strip()).startsWith("hb: config push: cannot reach 198.18.1.99 over ssh (")
                    .endsWith("; check the address, or pass --to HOST; nothing pushed");

            // a key the peer does not accept: permission denied, one line
            Path otherKey = lab.runDir().resolve("other_key");
            lab.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", otherKey.toString()), 30);
            String badSsh = ssh.replace(lab.runDir().resolve("ssh/id_ed25519").toString(), otherKey.toString());
            Lab.Result denied = hb(lab, "node1", "config", "push", "--config-dir", cfg1.toString(), "--to", "198.18.1.2",
                    "--remote-dir", cfg2.toString(), "--ssh", badSsh, "--yes");
            assertThat(denied.code()).isEqualTo(1);
            assertThat(denied.output().strip().lines()).hasSize(1);
            assertThat(denied.output()).startsWith("hb: config push: ssh to 198.18.1.2: permission denied (");
        }
    }

    @Test
    void onATerminalItAsksAndWritesOnlyAfterYes() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of())) {
            Path cfg1 = lab.configDir("node1");
            Path cfg2 = lab.configDir("node2");
            Files.writeString(cfg2.resolve("haresources"), "node1 198.18.0.100/24/eth0\n");
            String push = "java -jar " + jar() + " config push --config-dir " + cfg1 + " --to 198.18.1.2 --remote-dir " + cfg2
                    + " --ssh '" + lab.sshCommand() + "' --file haresources";

            Lab.Result no = onTerminal(lab, "node1", push, "n");
            assertThat(no.code()).as(no.output()).isEqualTo(1);
            assertThat(no.output()).contains("+node1 198.18.0.100/24/eth0 labweb")
                    .contains("Write haresources on 198.18.1.2:" + cfg2 + "? [y/N] ")
                    .contains("hb: config push: not confirmed; nothing pushed");
            assertThat(Files.readString(cfg2.resolve("haresources"))).isEqualTo("node1 198.18.0.100/24/eth0\n");

            Lab.Result yes = onTerminal(lab, "node1", push, "y");
            assertThat(yes.code()).as(yes.output()).isZero();
            assertThat(yes.output()).contains("Wrote haresources on 198.18.1.2:" + cfg2);
            assertThat(Files.readAllBytes(cfg2.resolve("haresources"))).isEqualTo(Files.readAllBytes(cfg1.resolve("haresources")));
            assertThat(Files.readString(cfg2.resolve("haresources.bak"))).isEqualTo("node1 198.18.0.100/24/eth0\n");
        }
    }

    /** Runs the shell command {@code cmd} inside {@code node} on a pseudo-terminal (script(1)), typing {@code answer}. */
    static Lab.Result onTerminal(Lab lab, String node, String cmd, String answer) throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        return lab.run(List.of("sh", "-c", "printf '%s\\n' \"$0\" | \"$@\"", answer, root.resolve("lab/lab.sh").toString(),
                "exec", node, "script", "-qec", cmd, "/dev/null"), 60);
    }

    static String jar() {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        return System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString());
    }

    /** Runs {@code hb ARGS...} (the built jar) inside {@code node}. */
    static Lab.Result hb(Lab lab, String node, String... args) throws Exception {
        Path root = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
        List<String> argv = new ArrayList<>(List.of("exec", node, "java", "-Xmx96m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-jar", System.getProperty("hb.jar", root.resolve("cli/target/hb.jar").toString())));
        argv.addAll(List.of(args));
        return lab.lab(argv.toArray(String[]::new));
    }
}
