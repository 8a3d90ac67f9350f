package org.jheartbeat.cli.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * jheartbeat.yaml {@code metrics: tls_cert_file:} and {@code tls_key_file:}, given together: the endpoint then
 * serves https. Both absolute; their contents (PEM certificates; an unencrypted PKCS#8 key of mode 600 owned by
 * root) are checked when the daemon reads them ({@code MetricsTls}).
 *
 * @param certFile the PEM certificate of the endpoint, then its intermediates
 * @param keyFile  its PEM PKCS#8 private key
 */
public record MetricsTlsFiles(Path certFile, Path keyFile) {
    public MetricsTlsFiles {
        Objects.requireNonNull(certFile, "certFile");
        Objects.requireNonNull(keyFile, "keyFile");
    }
}
