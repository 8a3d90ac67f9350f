package org.jheartbeat.director.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code checkcafile = /path/ca.pem}, a jheartbeat extension of ldirectord.cf (ldirectord's TLS checks trust any
 * certificate and it has no such option): an absolute path to a readable PEM file of CA certificates, for a check
 * over TLS ({@link #TLS_SERVICES}). Checked when the file is read, so a mistake is a {@code file:line} error, not a
 * real server down later.
 */
final class CaFile {
    /** The services whose checks speak TLS, so verify with {@code checkcafile}. */
    static final java.util.List<String> TLS_SERVICES = java.util.List.of("https", "imaps", "pops", "ldaps");

    private CaFile() {
    }

    /** Whether {@code service} (any case) is one of {@link #TLS_SERVICES}. */
    static boolean isTls(String service) {
        return service != null && TLS_SERVICES.contains(service.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * @param value   the directive's value
     * @param service the virtual service's {@code service}
     * @param error   receives the one-line problem
     * @return the path, or empty after reporting the problem
     */
    static Optional<Path> check(String value, String service, Consumer<String> error) {
        if (!isTls(service)) {
            error.accept("checkcafile verifies the TLS checks only (" + String.join(", ", TLS_SERVICES)
                    + "), and this virtual service checks " + service + "; remove it");
            return Optional.empty();
        }
        if (!value.startsWith("/")) {
            error.accept("checkcafile must be an absolute path to a PEM file of CA certificates, e.g."
                    + " /etc/ssl/certs/ca-certificates.crt; got '" + value + "'");
            return Optional.empty();
        }
        Path p = Path.of(value);
        try (InputStream in = Files.newInputStream(p)) {
            if (CertificateFactory.getInstance("X.509").generateCertificates(in).isEmpty()) {
                error.accept("checkcafile " + p + " holds no certificate; give a PEM file with one or more"
                        + " -----BEGIN CERTIFICATE----- blocks");
                return Optional.empty();
            }
            return Optional.of(p);
        } catch (IOException e) {
            error.accept("checkcafile " + p + " cannot be read (" + e.getMessage() + "); check the path and mode");
        } catch (CertificateException e) {
            error.accept("checkcafile " + p + " is not a PEM file of certificates (" + e.getMessage() + ")");
        }
        return Optional.empty();
    }
}
