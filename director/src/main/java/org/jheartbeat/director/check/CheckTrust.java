package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.util.Optional;
import javax.net.ssl.SSLSocketFactory;

/**
 * How one virtual service's TLS checks (https, imaps, pops, ldaps) trust the real server. Without
 * {@code checkcafile} any certificate is accepted, as ldirectord 4.x does; with it, the chain must lead to a CA of
 * that PEM file and the certificate must name {@code virtualhost} when that is a DNS name ({@link Tls#verifying}),
 * all within the TLS handshake, so a login, password or bind is never sent to a server that fails. The failure is a
 * "down" whose reason names the CA file ({@link #rejection}).
 *
 * <p>The verifying factory is made from the file once per check object (a check is made per real server per
 * configuration, so a changed CA file is read again at the next reload); it is not kept while the file cannot be
 * read.
 */
final class CheckTrust {
    /** Trust any certificate: ldirectord's way. */
    static final CheckTrust ANY = new CheckTrust(Optional.empty());

    private final Optional<Path> caFile;
    private volatile SSLSocketFactory verifier;

    private CheckTrust(Optional<Path> caFile) {
        this.caFile = caFile;
    }

    /** @param caFile {@code checkcafile}, or empty to trust any certificate */
    static CheckTrust of(Optional<Path> caFile) {
        return caFile.isPresent() ? new CheckTrust(caFile) : ANY;
    }

    /**
     * The verifying socket factory, or empty to trust any certificate.
     *
     * @throws IOException when the CA file cannot be read or holds no certificate (the check is then down)
     */
    Optional<SSLSocketFactory> factory() throws IOException {
        if (caFile.isEmpty()) {
            return Optional.empty();
        }
        SSLSocketFactory v = verifier;
        if (v == null) {
            v = Tls.verifying(caFile.orElseThrow());
            verifier = v;
        }
        return Optional.of(v);
    }

    /** The name to send as SNI and, with a CA file, to find in the certificate: {@code virtualhost} when a DNS name. */
    static String serverName(CheckTarget target) {
        return Tls.serverName(target.virtualHost().orElse(null));
    }

    /**
     * Connects to the check's real server and runs the TLS handshake with this trust, asking for
     * {@link #serverName}.
     *
     * @throws CheckFailure when the certificate is refused ({@link #rejection})
     * @throws IOException  when the connection or handshake fails otherwise, or the deadline passes
     */
    Conversation open(CheckTarget target, Deadline deadline) throws IOException, CheckFailure {
        return open(target.server(), deadline, serverName(target));
    }

    /** As {@link #open(CheckTarget, Deadline)}, to {@code server} asking for {@code sniHost} (may be null). */
    Conversation open(InetSocketAddress server, Deadline deadline, String sniHost) throws IOException, CheckFailure {
        try {
            return Conversation.open(server, deadline, true, sniHost, factory());
        } catch (IOException e) {
            Optional<String> refused = rejection(e);
            if (refused.isPresent()) {
                throw new CheckFailure(refused.get());
            }
            throw e;
        }
    }

    /**
     * The reason of a check's down when {@code failure} is this trust refusing the server's certificate (a
     * {@link CertificateException} among its causes, with a CA file), else empty.
     */
    Optional<String> rejection(Throwable failure) {
        if (caFile.isEmpty()) {
            return Optional.empty();
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof CertificateException) {
                return Optional.of("TLS certificate of the real server refused (checkcafile "
                        + caFile.orElseThrow() + "): " + SocketCheck.reason(t));
            }
        }
        return Optional.empty();
    }
}
