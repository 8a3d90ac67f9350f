package org.jheartbeat.director.userspace.sched;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * One persistence template as a director pair replicates it: the client's key (its address under the
 * service's netmask) bound to a real server, with the time it has left.
 *
 * @param client          the template's key
 * @param real            the real server the key is bound to
 * @param remainingMillis how long it stays valid from now (ms, at least 0)
 */
public record SyncedTemplate(InetAddress client, InetSocketAddress real, long remainingMillis) {
    public SyncedTemplate {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(real, "real");
        if (remainingMillis < 0) {
            throw new IllegalArgumentException("remainingMillis < 0");
        }
    }
}
