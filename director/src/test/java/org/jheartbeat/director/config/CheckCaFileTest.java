package org.jheartbeat.director.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jheartbeat.core.config.ConfigDiagnostic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code checkcafile}: read for the TLS services (https, imaps, pops, ldaps), checked when the file is read, each mistake a file:line error. */
class CheckCaFileTest {
    private static final Path FILE = Path.of("/etc/ha.d/ldirectord.cf");
    /** A real CA certificate (the JDK's cacerts hold many; Debian's bundle is this one). */
    private static final Path BUNDLE = Path.of("/etc/ssl/certs/ca-certificates.crt");

    @TempDir
    Path dir;

    private static String virtual(String service, String extra) {
        return "virtual = 198.18.0.100:443\n\treal = 198.18.0.21:443 masq\n\tservice = " + service
                + "\n\tchecktype = negotiate\n\trequest = \"/\"\n\treceive = \"ok\"\n" + extra;
    }

    private static List<String> errors(LdirectordParser.Result r) {
        return r.diagnostics().stream().filter(ConfigDiagnostic::isError).map(ConfigDiagnostic::format).toList();
    }

    @Test
    void aCaFileForAnHttpsServiceIsKeptAndAGlobalOneAppliesToHttpsOnly() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(BUNDLE), "Debian's CA bundle");
        LdirectordParser p = new LdirectordParser();
        LdirectordParser.Result r = p.parse(FILE, virtual("https", "\tcheckcafile = " + BUNDLE + "\n"));
        assertThat(errors(r)).isEmpty();
        assertThat(r.config().orElseThrow().virtuals().get(0).checkCaFile()).contains(BUNDLE);
        LdirectordParser.Result global = p.parse(FILE, "checkcafile = " + BUNDLE + "\n" + virtual("http", "")
                + virtual("https", "").replace("198.18.0.100", "198.18.0.101"));
        assertThat(errors(global)).isEmpty();
        assertThat(global.config().orElseThrow().virtuals()).extracting(VirtualService::checkCaFile)
                .containsExactly(java.util.Optional.empty(), java.util.Optional.of(BUNDLE));
    }

    @Test
    void everyTlsServiceTakesACaFileAndAGlobalOneAppliesToEachOfThem() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(BUNDLE), "Debian's CA bundle");
        LdirectordParser p = new LdirectordParser();
        for (String service : List.of("imaps", "pops", "ldaps")) {
            LdirectordParser.Result own = p.parse(FILE, virtual(service, "\tcheckcafile = " + BUNDLE + "\n"));
            assertThat(errors(own)).as(service).isEmpty();
            assertThat(own.config().orElseThrow().virtuals().get(0).checkCaFile()).as(service).contains(BUNDLE);
        }
        LdirectordParser.Result global = p.parse(FILE, "checkcafile = " + BUNDLE + "\n" + virtual("imap", "")
                + virtual("imaps", "").replace("198.18.0.100", "198.18.0.101")
                + virtual("pops", "").replace("198.18.0.100", "198.18.0.102")
                + virtual("ldaps", "").replace("198.18.0.100", "198.18.0.103"));
        assertThat(errors(global)).isEmpty();
        assertThat(global.config().orElseThrow().virtuals()).extracting(VirtualService::checkCaFile)
                .containsExactly(java.util.Optional.empty(), java.util.Optional.of(BUNDLE),
                        java.util.Optional.of(BUNDLE), java.util.Optional.of(BUNDLE));
    }

    @Test
    void eachMistakeIsAnErrorOnItsLine() throws Exception {
        LdirectordParser p = new LdirectordParser();
        assertThat(errors(p.parse(FILE, virtual("https", "\tcheckcafile = ca.pem\n")))).containsExactly(FILE + ":7:"
                + " checkcafile must be an absolute path to a PEM file of CA certificates, e.g."
                + " /etc/ssl/certs/ca-certificates.crt; got 'ca.pem'");
        assertThat(errors(p.parse(FILE, virtual("http", "\tcheckcafile = /etc/ssl/x.pem\n")))).containsExactly(FILE
                + ":7: checkcafile verifies the TLS checks only (https, imaps, pops, ldaps), and this virtual service"
                + " checks http; remove it");
        Path junk = Files.writeString(dir.resolve("junk.pem"), "not a certificate\n");
        assertThat(errors(p.parse(FILE, virtual("https", "\tcheckcafile = " + junk + "\n")))).singleElement()
                .asString().startsWith(FILE + ":7: checkcafile " + junk);
        assertThat(errors(p.parse(FILE, virtual("https", "\tcheckcafile = " + dir.resolve("none.pem") + "\n"))))
                .singleElement().asString().contains("cannot be read");
    }
}
