package org.jheartbeat.director.userspace.sync;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.jheartbeat.core.auth.AuthKeys;
import org.jheartbeat.core.auth.AuthMethod;
import org.jheartbeat.core.auth.MessageAuthenticator;
import org.jheartbeat.core.config.AuthKeysParser;
import org.jheartbeat.core.config.ConfigDiagnostic;

/**
 * What both ends of the template sync share: the authkeys key, which {@code syncpeer} address is this
 * node's and which are the other's, and where the standby keeps the templates.
 */
public final class TemplateSync {
    /** Where {@code hb lvs syncd} keeps the templates and the director finds them. */
    public static final Path STATE_DIR = Path.of("/var/lib/jheartbeat");

    private TemplateSync() {
    }

    /** This node's sync address and the other director's addresses. */
    public record Link(InetAddress local, Set<InetAddress> others) {
    }

    /**
     * Splits {@code syncpeer} into this node's address (the one {@code isLocal} says is here) and the others.
     *
     * @throws IllegalArgumentException with the message to show when none or several are local, or none other
     */
    public static Link link(List<InetAddress> peers, Predicate<InetAddress> isLocal) {
        Set<InetAddress> others = new LinkedHashSet<>();
        InetAddress local = null;
        for (InetAddress p : peers) {
            if (!isLocal.test(p)) {
                others.add(p);
            } else if (local == null) {
                local = p;
            } else {
                throw new IllegalArgumentException("syncpeer lists two addresses of this node (" + local.getHostAddress()
                        + ", " + p.getHostAddress() + "); list one address per director");
            }
        }
        if (local == null || others.isEmpty()) {
            throw new IllegalArgumentException("syncpeer must list this node's address on the sync link and the other"
                    + " director's (" + (local == null ? "none is this node's" : "none is another node's") + ")");
        }
        return new Link(local, Set.copyOf(others));
    }

    /** Whether an address is on one of this host's interfaces. */
    public static boolean isLocal(InetAddress a) {
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /**
     * The authenticator of an authkeys file whose signing key is sha1 or md5.
     *
     * @throws IllegalArgumentException with the message to show: unreadable, invalid, or crc (which signs
     *                                  nothing: anyone could forge a template)
     */
    public static MessageAuthenticator authenticator(Path authkeys) {
        String text;
        try {
            text = Files.readString(authkeys, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalArgumentException("syncauthkeys " + authkeys + " cannot be read ("
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage())
                    + "); give the cluster's authkeys file");
        }
        AuthKeysParser.Result r = AuthKeysParser.parse(authkeys, text);
        Optional<AuthKeys> keys = r.authKeys();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException(r.diagnostics().stream().filter(ConfigDiagnostic::isError)
                    .map(ConfigDiagnostic::format).findFirst().orElse(authkeys + " has no usable key"));
        }
        if (keys.get().signingKey().method() == AuthMethod.CRC) {
            throw new IllegalArgumentException(authkeys + ": the signing key is crc, which authenticates nothing;"
                    + " template sync needs sha1 (or md5) so no one else can plant templates");
        }
        return new MessageAuthenticator(keys.get());
    }

    /** The standby's file for a config and this node's sync address. */
    public static Path stateFile(Path dir, String configName, InetAddress local) {
        return dir.resolve("lvs-" + configName + "-" + local.getHostAddress().replace(':', '_') + ".templates");
    }
}
