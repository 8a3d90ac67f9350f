package org.jheartbeat.director.check;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.concurrent.Callable;
import javax.net.SocketFactory;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The socket factory the JDK's JNDI LDAP provider instantiates by class name for the ldaps check
 * (it must be public with a static {@code getDefault()}). JNDI gives no way to pass a factory object, so the check
 * names the trust of its connection for the thread that opens it ({@link #using}): the factory of its
 * {@link CheckTrust} and the SNI name to ask for. Outside {@link #using}, TLS that accepts any certificate (as
 * ldirectord). Not for other uses.
 */
public final class LdapsSocketFactory extends SocketFactory {
    /** The trust of the ldaps connection this thread is opening (JNDI connects on the caller's thread). */
    private static final ThreadLocal<LdapsSocketFactory> CURRENT = new ThreadLocal<>();

    private final SSLSocketFactory tls;
    private final String serverName;

    private LdapsSocketFactory(SSLSocketFactory tls, String serverName) {
        this.tls = tls;
        this.serverName = serverName;
    }

    /**
     * Runs {@code body} (which opens a JNDI ldaps connection on this thread) with sockets of {@code tls} that ask
     * for {@code serverName}.
     *
     * @param serverName a DNS name from {@link Tls#serverName}, or {@code null} for no SNI and no name check
     * @throws Exception what {@code body} throws
     */
    static <T> T using(SSLSocketFactory tls, String serverName, Callable<T> body) throws Exception {
        CURRENT.set(new LdapsSocketFactory(tls, serverName));
        try {
            return body.call();
        } finally {
            CURRENT.remove();
        }
    }

    /**
     * Called by JNDI ({@code java.naming.ldap.factory.socket}).
     *
     * @return the factory of the current {@link #using}, else one that trusts any certificate
     */
    public static SocketFactory getDefault() {
        LdapsSocketFactory current = CURRENT.get();
        return current != null ? current : new LdapsSocketFactory(Tls.factory(), null);
    }

    private Socket ask(Socket socket) {
        Tls.askFor((SSLSocket) socket, serverName);
        return socket;
    }

    @Override
    public Socket createSocket() throws IOException {
        return ask(tls.createSocket());
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException {
        return ask(tls.createSocket(host, port));
    }

    @Override
    public Socket createSocket(String host, int port, InetAddress local, int localPort) throws IOException {
        return ask(tls.createSocket(host, port, local, localPort));
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException {
        return ask(tls.createSocket(host, port));
    }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress local, int localPort) throws IOException {
        return ask(tls.createSocket(address, port, local, localPort));
    }
}
