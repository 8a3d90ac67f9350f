package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * TLS for the checks of https, pops, imaps and ldaps: any certificate is accepted and the host
 * name is not verified, as ldirectord 4.x does (its https check turns off LWP's
 * {@code verify_hostname}; real servers are addressed by IP and often carry the virtual
 * service's certificate). A health check proves the server answers, not who it is.
 */
final class Tls {
    private static final SSLSocketFactory FACTORY = trustAllFactory();

    private Tls() {
    }

    /** The trust-everything socket factory (also used by the JNDI LDAP check). */
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
        InetAddress peer = plain.getInetAddress();
        SSLSocket tls = (SSLSocket) FACTORY.createSocket(plain, peer.getHostAddress(), plain.getPort(), true);
        if (sniHost != null && !sniHost.isEmpty() && !isAddressLiteral(sniHost)) {
            SSLParameters params = tls.getSSLParameters();
            params.setServerNames(List.of(new SNIHostName(sniHost)));
            tls.setSSLParameters(params);
        }
        tls.setSoTimeout(plain.getSoTimeout());
        tls.startHandshake();
        return tls;
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
