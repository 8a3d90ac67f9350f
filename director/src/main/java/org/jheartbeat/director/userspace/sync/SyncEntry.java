package org.jheartbeat.director.userspace.sync;

import java.net.InetSocketAddress;
import java.util.Objects;
import org.jheartbeat.director.userspace.sched.SyncedTemplate;

/**
 * One template of one virtual service, as sent between the directors.
 *
 * @param udp      a UDP service (else TCP)
 * @param virtual  the service's address and port
 * @param template the client key, its real server and the time left
 */
public record SyncEntry(boolean udp, InetSocketAddress virtual, SyncedTemplate template) {
    public SyncEntry {
        Objects.requireNonNull(virtual, "virtual");
        Objects.requireNonNull(template, "template");
    }
}
