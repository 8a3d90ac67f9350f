package org.jheartbeat.director.table;

import java.util.Objects;

/**
 * One line of {@code ipvsadm -L -n -c}.
 *
 * @param protocol      {@code TCP}, {@code UDP}, {@code IP} (templates of mark services)
 * @param expireSeconds seconds until the entry expires
 * @param state         e.g. {@code ESTABLISHED}, {@code NONE}
 * @param source        client {@code ip:port} (port 0 for a persistence template)
 * @param virtual       virtual {@code ip:port}
 * @param destination   real {@code ip:port}
 */
public record ConnectionEntry(String protocol, long expireSeconds, String state, String source, String virtual,
        String destination) {
    public ConnectionEntry {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(virtual, "virtual");
        Objects.requireNonNull(destination, "destination");
    }
}
