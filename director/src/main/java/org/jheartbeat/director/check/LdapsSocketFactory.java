package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import javax.net.SocketFactory;

/**
 * The socket factory the JDK's JNDI LDAP provider instantiates by class name for the ldaps check
 * (it must be public with a static {@code getDefault()}): TLS that accepts any certificate and
 * does not verify the host name, as the other TLS checks ({@code Tls}). Not for other uses.
 */
public final class LdapsSocketFactory extends SocketFactory {

    /**
     * Called by JNDI ({@code java.naming.ldap.factory.socket}).
     *
     * @return the trust-all TLS socket factory
     */
    public static SocketFactory getDefault() {
        return new LdapsSocketFactory();
    }

    @Override
    public Socket createSocket() throws IOException {
        return Tls.factory().createSocket();
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return Tls.factory().createSocket(host, port);
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
        return Tls.factory().createSocket(host, port, local, localPort);
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return Tls.factory().createSocket(host, port);
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
        return Tls.factory().createSocket(address, port, local, localPort);
    }
}
