package org.jheartbeat.cli.metrics;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * Reads {@code metrics: tls_cert_file:} and {@code tls_key_file:} into the endpoint's TLS context (Netty's
 * {@link SslContext} on the JDK's TLS, TLS 1.2 and 1.3). The certificate file is PEM, the server's certificate first
 * and then any intermediates. The key file is an unencrypted PKCS#8 PEM key ({@code -----BEGIN PRIVATE KEY-----}, as
 * {@code openssl genpkey} writes it; RSA, EC or Ed25519) and, like authkeys, must belong to the daemon's user (root)
 * and be neither readable nor writable by group or others: whoever reads it can pose as the endpoint. An older
 * PKCS#1 key or an encrypted one (the daemon starts unattended: no passphrase to ask) is refused with the
 * {@code openssl} command that converts it.
 */
public final class MetricsTls {
    private static final Set<PosixFilePermission> GROUP_OR_OTHER = EnumSet.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
    private static final String BEGIN = "-----BEGIN ";
    private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS");

    private MetricsTls() {
    }

    /** Why the TLS files cannot be used: one line, {@code FILE[:LINE]: what is wrong; what to do}. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Reads and checks both files and builds the server context.
     *
     * @param certFile the {@code tls_cert_file:} path (PEM certificates)
     * @param keyFile  the {@code tls_key_file:} path (PEM PKCS#8 key)
     * @return the context the endpoint wraps every connection in
     * @throws Refused when a file is missing, unreadable, of a wrong mode or owner (the key), not the expected PEM,
     *                 or the key is not the certificate's
     */
    public static SslContext load(Path certFile, Path keyFile) throws Refused {
        List<X509Certificate> chain = certificates(certFile);
        PrivateKey key = key(keyFile);
        if (!belongsTo(key, chain.get(0))) {
            throw new Refused(keyFile + ": is not the key of the certificate in " + certFile + " (" + subject(chain)
                    + "); give the key the certificate was made for");
        }
        try {
            return SslContextBuilder.forServer(key, chain.toArray(new X509Certificate[0]))
                    .sslProvider(SslProvider.JDK).protocols("TLSv1.3", "TLSv1.2").build();
        } catch (SSLException | RuntimeException e) {
            throw new Refused(certFile + ": cannot serve TLS with " + keyFile + " (" + e.getMessage() + ")");
        }
    }

    /** The PEM certificates of {@code file}, the server's first. */
    static List<X509Certificate> certificates(Path file) throws Refused {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new Refused(file + ": does not exist; give the PEM certificate of the endpoint (tls_cert_file:)");
        } catch (IOException e) {
            throw new Refused(file + ": cannot be read (" + e.getMessage() + "); check its owner and mode");
        }
        try {
            List<X509Certificate> certs = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(bytes)).stream()
                    .map(c -> (X509Certificate) c).toList();
            if (!certs.isEmpty()) {
                return certs;
            }
        } catch (CertificateException e) {
            // reported below with what to write instead
        }
        throw new Refused(file + ": holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the endpoint's"
                + " certificate, then its intermediates");
    }

    /** The private key of {@code file}, after checking the file's type, owner and mode. */
    static PrivateKey key(Path file) throws Refused {
        String text;
        try {
            PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new Refused(file + ": is not a regular file; give the key as a plain file of mode 0600");
            }
            Set<PosixFilePermission> wide = EnumSet.copyOf(GROUP_OR_OTHER);
            wide.retainAll(a.permissions());
            if (!wide.isEmpty()) {
                throw new Refused(file + ": is mode " + PosixFilePermissions.toString(a.permissions())
                        + ", open to others than its owner, who could read the key; run chmod 600 " + file);
            }
            int owner = (Integer) Files.getAttribute(file, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            int self = (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (owner != self) {
                throw new Refused(file + ": is owned by uid " + owner + ", not by the daemon's user (uid " + self
                        + "), who alone may hold the key; run chown " + (self == 0 ? "root" : self) + " " + file);
            }
            text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new Refused(file + ": does not exist; write a key with: openssl genpkey -algorithm EC -pkeyopt"
                    + " ec_paramgen_curve:P-256 -out " + file + " && chmod 600 " + file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new Refused(file + ": is not a PEM text file; give the key as openssl genpkey writes it");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            throw new Refused(file + ": cannot be read (" + e.getMessage() + "); check its owner and mode");
        }
        return decode(file, text);
    }

    /**
     * The key of a PEM text: its first {@code BEGIN} block must be {@code PRIVATE KEY} (PKCS#8, unencrypted).
     *
     * @param file for the messages
     * @throws Refused {@code FILE:LINE:} the block's line, with the {@code openssl} command that fixes it
     */
    static PrivateKey decode(Path file, String text) throws Refused {
        List<String> lines = text.lines().toList();
        int at = 0;
        while (at < lines.size() && !lines.get(at).strip().startsWith(BEGIN)) {
            at++;
        }
        if (at == lines.size()) {
            throw new Refused(file + ":1: is not a PEM private key (no -----BEGIN PRIVATE KEY----- line); write one"
                    + " with: openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + file);
        }
        String begin = lines.get(at).strip();
        String where = file + ":" + (at + 1) + ": ";
        String label = begin.substring(BEGIN.length()).replaceAll("-+$", "");
        boolean procEncrypted = lines.stream().skip(at + 1L).limit(3)
                .anyMatch(l -> l.strip().startsWith("Proc-Type:") && l.contains("ENCRYPTED"));
        if (label.equals("ENCRYPTED PRIVATE KEY") || procEncrypted) {
            throw new Refused(where + "the key is encrypted with a passphrase, which the daemon cannot ask for at"
                    + " start; write it unencrypted (PKCS#8) with: openssl pkcs8 -topk8 -nocrypt -in " + file
                    + " -out " + file + ".pk8, then chmod 600 and use that file");
        }
        if (label.equals("RSA PRIVATE KEY") || label.equals("EC PRIVATE KEY") || label.equals("DSA PRIVATE KEY")) {
            throw new Refused(where + "the key is in the older " + (label.startsWith("RSA") ? "PKCS#1" : "traditional")
                    + " format (" + begin + "), not PKCS#8; convert it with: openssl pkcs8 -topk8 -nocrypt -in " + file
                    + " -out " + file + ".pk8, then chmod 600 and use that file");
        }
        if (!label.equals("PRIVATE KEY")) {
            throw new Refused(where + "the first PEM block is " + label + ", not PRIVATE KEY; give the key file ("
                    + "openssl genpkey writes -----BEGIN PRIVATE KEY-----), not the certificate");
        }
        StringBuilder base64 = new StringBuilder();
        int end = at + 1;
        while (end < lines.size() && !lines.get(end).strip().startsWith("-----END PRIVATE KEY-----")) {
            base64.append(lines.get(end).strip());
            end++;
        }
        if (end == lines.size()) {
            throw new Refused(where + "the PRIVATE KEY block has no -----END PRIVATE KEY----- line; the file is cut"
                    + " short: write the key again");
        }
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64.toString());
        } catch (IllegalArgumentException e) {
            throw new Refused(where + "the PRIVATE KEY block is not valid base64; write the key again");
        }
        for (String algorithm : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this algorithm: try the next
            }
        }
        throw new Refused(where + "the PRIVATE KEY block is not an RSA, EC or Ed25519 key; write one with: openssl"
                + " genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out " + file);
    }

    /** Whether {@code key} signs what {@code cert}'s public key verifies (true when the type has no test here). */
    static boolean belongsTo(PrivateKey key, X509Certificate cert) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null;
        };
        if (algorithm == null) {
            return true; // the TLS handshake is the test
        }
        try {
            byte[] probe = "jheartbeat metrics key check".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(cert.getPublicKey());
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static String subject(List<X509Certificate> chain) {
        return chain.get(0).getSubjectX500Principal().getName();
    }
}
