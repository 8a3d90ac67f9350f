package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * TLS for the checks of https, pops, imaps and ldaps: by default any certificate is accepted and the
 * host name is not verified, as ldirectord 4.x does (its https check turns off LWP's
 * {@code verify_hostname}; real servers are addressed by IP and often carry the virtual service's
 * certificate). With {@code checkcafile} ({@link CheckTrust}), the chain must lead to a CA of that
 * file, and the certificate must name the server name the check asked for (SNI: {@code virtualhost}
 * when it is a DNS name), checked during the handshake so that nothing is sent to a server that fails
 * ({@link #verifying}).
 */
final class Tls {
    private static final SSLSocketFactory FACTORY = trustAllFactory();

    private Tls() {
    }

    /** The trust-everything socket factory. */
    static SSLSocketFactory factory() {
        return FACTORY;
    }

    /**
     * Runs the TLS handshake over a connected socket, bounded by the socket timeout already set
     * on it.
     *
     * @param plain   the connected TCP socket (closed with the returned one)
     * @param sniHost a DNS name to send as SNI, or {@code null}/an address literal for none
     * @return the TLS socket, handshake done
     * @throws IOException if the handshake fails or times out
     */
    static SSLSocket handshake(Socket plain, String sniHost) throws IOException {
        return handshake(plain, sniHost, Optional.empty());
    }

    /**
     * As {@link #handshake(Socket, String)}, with {@code verify} (from {@link #verifying}) checking the chain and,
     * when {@code sniHost} is a DNS name, that the certificate names it.
     *
     * @throws IOException also when the certificate is not trusted or names another host
     */
    static SSLSocket handshake(Socket plain, String sniHost, Optional<SSLSocketFactory> verify) throws IOException {
        InetAddress peer = plain.getInetAddress();
        String name = serverName(sniHost);
        SSLSocket tls = (SSLSocket) verify.orElse(FACTORY).createSocket(plain,
                name != null ? name : peer.getHostAddress(), plain.getPort(), true);
        askFor(tls, name);
        tls.setSoTimeout(plain.getSoTimeout());
        tls.startHandshake();
        return tls;
    }

    /** {@code host} when it is a DNS name to send as SNI (and to verify), else {@code null}. */
    static String serverName(String host) {
        return host != null && !host.isEmpty() && !isAddressLiteral(host) ? host : null;
    }

    /**
     * Sends {@code name} (from {@link #serverName}; {@code null}: none) as SNI in the coming handshake; a socket of
     * {@link #verifying} then also requires the certificate to name it.
     */
    static void askFor(SSLSocket socket, String name) {
        if (name != null) {
            SSLParameters params = socket.getSSLParameters();
            params.setServerNames(List.of(new SNIHostName(name)));
            socket.setSSLParameters(params);
        }
    }

    /**
     * A socket factory that trusts only the CA certificates of a PEM file (one or more
     * {@code -----BEGIN CERTIFICATE-----} blocks); the file is read now. Its sockets also require the
     * server's certificate to name the SNI host name they sent ({@link #askFor}), whatever endpoint
     * identification a caller (such as JNDI) sets: they check the name themselves ({@link CertificateName}).
     *
     * @throws IOException when the file cannot be read or holds no certificate
     */
    static SSLSocketFactory verifying(Path caFile) throws IOException {
        try (java.io.InputStream in = Files.newInputStream(caFile)) {
            java.util.Collection<? extends java.security.cert.Certificate> certs =
                    java.security.cert.CertificateFactory.getInstance("X.509").generateCertificates(in);
            if (certs.isEmpty()) {
                throw new IOException(caFile + " holds no certificate");
            }
            java.security.KeyStore store = java.security.KeyStore.getInstance(java.security.KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (java.security.cert.Certificate c : certs) {
                store.setCertificateEntry("ca" + i++, c);
            }
            javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                    javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(store);
            X509TrustManager chain = null;
            for (TrustManager tm : tmf.getTrustManagers()) {
                if (tm instanceof X509TrustManager x) {
                    chain = x;
                }
            }
            if (chain == null) {
                throw new GeneralSecurityException("this JDK has no X.509 trust manager");
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new CaTrust(chain)}, new SecureRandom());
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IOException(caFile + " is not a PEM file of CA certificates: " + e.getMessage(), e);
        }
    }

    static boolean isAddressLiteral(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    private static SSLSocketFactory trustAllFactory() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAll()}, new SecureRandom());
            return context.getSocketFactory();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no TLS: " + e.getMessage(), e);
        }
    }

    /**
     * Accepts every chain. Being an {@link X509ExtendedTrustManager}, the JDK does not wrap it
     * with its own endpoint (host name) identification.
     */
    private static final class TrustAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
