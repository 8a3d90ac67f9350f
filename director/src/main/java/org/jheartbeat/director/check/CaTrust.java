package org.jheartbeat.director.check;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The trust of a check with {@code checkcafile}: the server's chain must lead to one of the file's CAs (the JDK's
 * PKIX check, {@code chain}), and when the client sent an SNI host name, the certificate must name it
 * ({@link CertificateName}). The name is checked here rather than by an endpoint identification algorithm because
 * the JDK's own check falls back to the peer's address, and JNDI (ldaps) connects by address: only the name the
 * check asked for counts. Being an {@link X509ExtendedTrustManager}, the JDK adds no check of its own.
 */
final class CaTrust extends X509ExtendedTrustManager {
    private final X509TrustManager chain;

    /** @param chain the PKIX trust manager of the CA file's certificates */
    CaTrust(X509TrustManager chain) {
        this.chain = chain;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        checkServerTrusted(certs, authType);
        if (socket instanceof SSLSocket tls) {
            checkName(certs, tls.getSSLParameters());
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        checkServerTrusted(certs, authType);
        if (engine != null) {
            checkName(certs, engine.getSSLParameters());
        }
    }

    @Override
    public void checkServerTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        chain.checkServerTrusted(certs, authType);
    }

    private static void checkName(X509Certificate[] certs, SSLParameters params) throws CertificateException {
        List<SNIServerName> asked = params.getServerNames();
        if (asked == null) {
            return;
        }
        for (SNIServerName n : asked) {
            if (n instanceof SNIHostName host) {
                List<String> names = CertificateName.namesOf(certs[0]);
                if (!CertificateName.matches(host.getAsciiName(), names)) {
                    throw new CertificateException("the certificate is for " + (names.isEmpty() ? "no DNS name"
                            : String.join(", ", names)) + ", not the virtualhost " + host.getAsciiName());
                }
            }
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, Socket socket)
            throws CertificateException {
        throw new CertificateException("a check is a client only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine engine)
            throws CertificateException {
        throw new CertificateException("a check is a client only");
    }

    @Override
    public void checkClientTrusted(X509Certificate[] certs, String authType) throws CertificateException {
        throw new CertificateException("a check is a client only");
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return chain.getAcceptedIssuers();
    }
}
