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
 * {@code hb setup} from two bare lab nodes (no ha.cf, authkeys, haresources; the package's jar, and the admin's
 * service script {@code labweb} in resource.d as an installed service would be) to a serving pair, run on node1,
 * reaching node2 over the lab's ssh, starting each daemon with the lab's stand-in for systemd
 * ({@code lab/service-start.sh}). Its failure cases stop before anything is half applied: an unreachable peer
 * leaves both nodes untouched, a check failing on the peer moves nothing into place; a re-run with the same
 * answers changes nothing, one with other answers is refused with the diff.
 */
@Tag("root")
class SetupIT {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();
    private static final List<String> FILES = List.of("ha.cf", "authkeys", "haresources", "jheartbeat.yaml");
    private static final String GROUP = "node1 198.18.0.100/24/eth0 labweb";

    @Test
    void fromTwoBareNodesToAServingPairAndItsFailureCases() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        try (Lab lab = new Lab(Map.of())) {
            Path cfg1 = lab.configDir("node1");
            Path cfg2 = lab.configDir("node2");
            List<String> setup = bareNodes(lab);
            List<String> withGroup = new ArrayList<>(setup);
            withGroup.addAll(List.of("--group", GROUP));

            // the peer cannot be reached: one line, exit 1, nothing written on either node
            List<String> unreachable = new ArrayList<>(withGroup);
            unreachable.addAll(List.of("--peer", "198.18.1.99"));
            Lab.Result gone = ConfigPushIT.hb(lab, "node1", unreachable.toArray(String[]::new));
            assertThat(gone.code()).as(gone.output()).isEqualTo(1);
            assertThat(gone.output().strip()).startsWith("hb: setup: cannot reach 198.18.1.99 over ssh (")
                    .endsWith("; check the address, or pass --peer HOST; nothing written on either node");
            assertBare(cfg1, cfg2);

            // ssh refused (a key node2 does not accept): one line, exit 1, nothing written on either node
            Path otherKey = lab.runDir().resolve("other_key");
            lab.run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", otherKey.toString()), 30);
            List<String> refusedSsh = new ArrayList<>(withGroup);
            int sshAt = refusedSsh.indexOf("--ssh") + 1;
            refusedSsh.set(sshAt, refusedSsh.get(sshAt).replace(lab.runDir().resolve("ssh/id_ed25519").toString(),
                    otherKey.toString()));
            Lab.Result denied = ConfigPushIT.hb(lab, "node1", refusedSsh.toArray(String[]::new));
            assertThat(denied.code()).as(denied.output()).isEqualTo(1);
            assertThat(denied.output().strip()).startsWith("hb: setup: ssh to 198.18.1.2: permission denied (")
                    .endsWith("; nothing written on either node");
            assertBare(cfg1, cfg2);

            // the check fails on the peer (the group's service is not installed there): nothing moved into place
            Path labweb2 = cfg2.resolve("resource.d/labweb");
            Path aside = lab.runDir().resolve("labweb.aside");
            Files.move(labweb2, aside);
            Lab.Result peerBad = ConfigPushIT.hb(lab, "node1", withGroup.toArray(String[]::new));
            System.out.println("setup with a failing check on node2:\n" + peerBad.output());
            assertThat(peerBad.code()).as(peerBad.output()).isEqualTo(2);
            assertThat(peerBad.output()).contains("node1: hb config check passed").contains("labweb")
                    .contains("hb: setup: hb config check fails on node2 (above, the files as hb setup would write them); fix"
                            + " what it says on node2").doesNotContain(".hb-setup/")
                    .contains("nothing moved into place");
            assertBare(cfg1, cfg2);
            Files.move(aside, labweb2);

            // the real thing
            long t0 = System.nanoTime();
            Lab.Result ok = ConfigPushIT.hb(lab, "node1", withGroup.toArray(String[]::new));
            long setupMs = (System.nanoTime() - t0) / 1_000_000;
            System.out.println("hb setup took " + setupMs + " ms:\n" + ok.output());
            assertThat(ok.code()).as(ok.output() + "\nnode1:\n" + lab.daemonLog("node1", 30) + "\nnode2:\n"
                    + lab.daemonLog("node2", 30)).isZero();
            assertThat(ok.output()).contains("node1: hb config check passed", "node2: hb config check passed",
                    "node1: service started", "node2: service started",
                    "node1 and node2 see each other. What runs where (hb status):");
            for (String f : FILES) {
                assertThat(Files.readAllBytes(cfg2.resolve(f))).as(f).isEqualTo(Files.readAllBytes(cfg1.resolve(f)));
            }
            for (Path cfg : List.of(cfg1, cfg2)) {
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cfg.resolve("authkeys"))))
                        .isEqualTo("rw-------");
                assertThat(cfg.resolve(".hb-setup")).doesNotExist();
            }
            assertThat(Files.readString(cfg1.resolve("authkeys"))).matches("auth 1\n1 sha1 [0-9a-f]{40}\n");
            lab.waitUntil(() -> "node1".equals(lab.http()), Figures.HANG_MS, "the group's VIP served by node1");

            // the same answers again: nothing to change
            Lab.Result again = ConfigPushIT.hb(lab, "node1", withGroup.toArray(String[]::new));
            assertThat(again.code()).as(again.output()).isZero();
            assertThat(again.output()).contains("Nothing to change: node1:" + cfg1 + " and node2 198.18.1.2:" + cfg2
                    + " already hold this configuration, and the pair runs.");

            // other answers: refused with the diff, nothing changed
            byte[] haresourcesBefore = Files.readAllBytes(cfg2.resolve("haresources"));
            List<String> other = new ArrayList<>(setup);
            other.addAll(List.of("--group", "node2 198.18.0.100/24/eth0 labweb"));
            Lab.Result refused = ConfigPushIT.hb(lab, "node1", other.toArray(String[]::new));
            assertThat(refused.code()).as(refused.output()).isEqualTo(1);
            assertThat(refused.output()).contains("-node1 198.18.0.100/24/eth0 labweb\n+node2 198.18.0.100/24/eth0 labweb")
                    .contains("hb: setup: node1:haresources, node2:haresources differ from these answers")
                    .contains("--force");
            assertThat(Files.readAllBytes(cfg2.resolve("haresources"))).isEqualTo(haresourcesBefore);
            assertThat("node1".equals(lab.http())).isTrue();
        }
    }

    /**
     * A drill (about 30 s more; -Djhb.drills=true): on a pair set up by hb setup, the same answers with the peer's
     * daemon stopped start it again; the same answers typed at the prompts
     * on a terminal change nothing; other answers with --force replace the files on both nodes (old copies kept)
     * and the running daemons reload them.
     */
    @Test
    void onASetUpPairTypedAnswersChangeNothingAndForceReplacesAndReloads() throws Exception {
        assumeTrue(Lab.isRoot(), "the lab needs root (network namespaces)");
        assumeTrue(Boolean.getBoolean("jhb.drills"), "a drill: run with -Djhb.drills=true");
        try (Lab lab = new Lab(Map.of())) {
            Path cfg1 = lab.configDir("node1");
            Path cfg2 = lab.configDir("node2");
            String jar = ConfigPushIT.jar();
            List<String> setup = bareNodes(lab);
            List<String> withGroup = new ArrayList<>(setup);
            withGroup.addAll(List.of("--group", GROUP));
            Lab.Result ok = ConfigPushIT.hb(lab, "node1", withGroup.toArray(String[]::new));
            assertThat(ok.code()).as(ok.output()).isZero();
            lab.waitUntil(() -> "node1".equals(lab.http()), Figures.HANG_MS, "the group's VIP served by node1");
            byte[] haresourcesBefore = Files.readAllBytes(cfg2.resolve("haresources"));

            // the same answers with node2's daemon stopped (a run interrupted after the files were in place): the
            // start is finished, not "nothing to change" with half a pair
            assertThat(lab.lab("stop", "node2").code()).isZero();
            Lab.Result finish = ConfigPushIT.hb(lab, "node1", withGroup.toArray(String[]::new));
            assertThat(finish.code()).as(finish.output()).isZero();
            assertThat(finish.output()).contains("Nothing to write: node1:" + cfg1 + " and node2 198.18.1.2:" + cfg2
                    + " already hold this configuration, but node1's daemon does not see node2; starting the service"
                    + " on both.").contains("node2: service started", "node1 and node2 see each other.");

            // the same answers typed at the prompts on a terminal: nothing to change either
            StringBuilder cmd = new StringBuilder("java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar " + jar);
            for (int i = 0; i < setup.size(); i++) {
                if (List.of("--peer-name", "--ucast").contains(setup.get(i))) {
                    i++;
                    continue;
                }
                String a = setup.get(i);
                cmd.append(" '").append(a.replace("'", "'\\''")).append('\'');
            }
            Lab.Result typed = ConfigPushIT.onTerminal(lab, "node1", cmd.toString(),
                    "node2\neth1 eth0\n198.18.1.2\n198.18.0.2\n\nnode1 198.18.0.100/24/eth0 labweb");
            assertThat(typed.code()).as(typed.output()).isZero();
            assertThat(typed.output()).contains("The peer node's name (its uname -n): ")
                    .containsPattern("eth1 +198\\.18\\.1\\.1 +no default route")
                    .contains("the peer's IPv4 address on eth0: ")
                    .contains("Nothing to change: node1:" + cfg1);

            // with --force: replaced on both nodes (old copies kept), the running daemons reload them
            List<String> forced = new ArrayList<>(setup);
            forced.addAll(List.of("--group", "node1 198.18.0.101/24/eth0 labweb", "--force"));
            Lab.Result force = ConfigPushIT.hb(lab, "node1", forced.toArray(String[]::new));
            assertThat(force.code()).as(force.output()).isZero();
            assertThat(force.output()).contains("-node1 198.18.0.100/24/eth0 labweb\n+node1 198.18.0.101/24/eth0 labweb")
                    .contains("node1 and node2 see each other.");
            for (Path cfg : List.of(cfg1, cfg2)) {
                assertThat(Files.readString(cfg.resolve("haresources"))).endsWith("\nnode1 198.18.0.101/24/eth0 labweb\n");
                assertThat(Files.readAllBytes(cfg.resolve("haresources.bak"))).isEqualTo(haresourcesBefore);
            }
            lab.waitUntil(() -> lab.holds("node1", "198.18.0.101") && !lab.holds("node1", "198.18.0.100"),
                    Figures.HANG_MS, "node1 serving the new group's address after the reload");
        }
    }

    /**
     * Empties both nodes' configuration (ha.cf, authkeys, haresources, jheartbeat.yaml; resource.d stays, as an
     * installed service's script would) and returns hb setup's options for this lab, without --group.
     */
    private static List<String> bareNodes(Lab lab) throws Exception {
        Path cfg1 = lab.configDir("node1");
        Path cfg2 = lab.configDir("node2");
        for (Path cfg : List.of(cfg1, cfg2)) {
            for (String f : FILES) {
                Files.deleteIfExists(cfg.resolve(f));
            }
        }
        String jar = ConfigPushIT.jar();
        return new ArrayList<>(List.of("setup", "--config-dir", cfg1.toString(), "--state-dir",
                lab.runDir().resolve("node1/state").toString(), "--node-name", "node1", "--peer-name", "node2",
                "--ucast", "eth1:198.18.1.2", "--ucast", "eth0:198.18.0.2",
                "--logfile", "/var/lib/jheartbeat/ha-log", "--ssh", lab.sshCommand(),
                "--remote-hb", "java -Xmx96m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar " + jar,
                "--remote-dir", cfg2.toString(), "--remote-state-dir", lab.runDir().resolve("node2/state").toString(),
                "--start-command", ROOT.resolve("lab/service-start.sh") + " " + lab.runDir() + " " + jar,
                "--wait", "60"));
    }

    private static void assertBare(Path... dirs) throws Exception {
        for (Path d : dirs) {
            for (String f : FILES) {
                assertThat(d.resolve(f)).as(d + "/" + f).doesNotExist();
            }
            assertThat(d.resolve(".hb-setup")).as("no stage left in " + d).doesNotExist();
        }
    }
}
