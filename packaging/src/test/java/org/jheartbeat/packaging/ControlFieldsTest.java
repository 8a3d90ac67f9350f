package org.jheartbeat.packaging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package's relations, as {@code packaging/README.md} explains each: the source control file, and the built
 * {@code .deb} (read with {@code dpkg-deb -f}) when the package phase has made one.
 */
class ControlFieldsTest {
    private static final Path ROOT = Path.of(System.getProperty("project.root", "..")).toAbsolutePath().normalize();

    /** The comma-separated names of one field of a control file's text (alternatives and versions kept). */
    static List<String> field(String control, String name) {
        return control.lines().filter(l -> l.startsWith(name + ":")).findFirst()
                .map(l -> Arrays.stream(l.substring(name.length() + 1).split(",")).map(String::strip).toList())
                .orElse(List.of());
    }

    static void assertRelations(String control) {
        // the director's IPVS backend runs ipvsadm; without it the director falls back to user space
        assertThat(field(control, "Recommends")).contains("ipvsadm");
        // the Hostname resource: nmbd for NetBIOS names, nsupdate and dig for DNS names (hostname is Essential)
        assertThat(field(control, "Suggests")).contains("samba", "bind9-dnsutils");
        // mount.nfs, for a replication job that mounts its NFS target itself
        assertThat(field(control, "Suggests")).contains("nfs-common");
        assertThat(field(control, "Depends")).doesNotContain("ipvsadm", "samba", "bind9-dnsutils");
    }

    @Test
    void theSourceControlFileRecommendsIpvsadmAndSuggestsTheHostnameTools() throws IOException {
        assertRelations(Files.readString(ROOT.resolve("packaging/src/deb/control/control"), StandardCharsets.UTF_8));
    }

    @Test
    void theBuiltPackageCarriesTheSameFields() throws Exception {
        Path target = ROOT.resolve("packaging/target");
        if (!Files.isDirectory(target)) {
            return; // no package phase in this run: the source file above is what will be built
        }
        try (Stream<Path> s = Files.list(target)) {
            for (Path deb : s.filter(p -> p.getFileName().toString().endsWith("_all.deb")).toList()) {
                Process p = new ProcessBuilder("dpkg-deb", "-f", deb.toString()).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor()).as(out).isZero();
                if (Files.getLastModifiedTime(deb).compareTo(Files.getLastModifiedTime(
                        ROOT.resolve("packaging/src/deb/control/control"))) >= 0) {
                    assertRelations(out);
                }
            }
        }
    }
}
