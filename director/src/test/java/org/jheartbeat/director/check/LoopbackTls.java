package org.jheartbeat.director.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Certificates made by the JDK's keytool and TLS server sockets on loopback for the TLS check tests (tests only).
 * Each certificate is self-signed, so its PEM is also the CA file that trusts it.
 */
final class LoopbackTls {
    private static final String PASS = "changeit";

    private LoopbackTls() {
    }

    /**
     * A self-signed RSA certificate for {@code name} and 127.0.0.1 in {@code dir/alias.p12}.
     *
     * @return its PEM, {@code dir/alias.pem}
     */
    static Path certificate(Path dir, String alias, String name) throws Exception {
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Path store = dir.resolve(alias + ".p12");
        Path pem = dir.resolve(alias + ".pem");
        run(List.of(keytool, "-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-dname",
                "CN=" + name, "-ext", "san=dns:" + name + ",ip:127.0.0.1", "-validity", "2", "-keystore",
                store.toString(), "-storetype", "PKCS12", "-storepass", PASS, "-keypass", PASS));
        run(List.of(keytool, "-exportcert", "-rfc", "-alias", alias, "-keystore", store.toString(), "-storepass",
                PASS, "-file", pem.toString()));
        return pem;
    }

    /** A server TLS context with the key of {@code dir/alias.p12} (from {@link #certificate}). */
    static SSLContext serverContext(Path dir, String alias) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(dir.resolve(alias + ".p12"))) {
            ks.load(in, PASS.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, PASS.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        return tls;
    }

    /** A TLS server socket on a free loopback port with the key of {@code dir/alias.p12}. */
    static ServerSocket serverSocket(Path dir, String alias) throws Exception {
        return serverContext(dir, alias).getServerSocketFactory().createServerSocket(0, 50,
                InetAddress.getLoopbackAddress());
    }

    private static void run(List<String> argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }
}
