package org.jheartbeat.cli.setup;

import java.util.List;
import java.util.Objects;

/**
 * Everything {@code hb setup} needs to write a pair's configuration, as given on the command line or typed at
 * its prompts.
 *
 * @param node    this node's name (as {@code uname -n} prints it on this machine)
 * @param peer    the other node's name (its {@code uname -n})
 * @param ucast   the UDP links, each an interface (the same name on both nodes) and both nodes' addresses on it
 * @param serial  the serial links, each a device path (the same on both nodes), e.g. {@code /dev/ttyS0}
 * @param baud    the serial lines' speed in bit/s (ha.cf {@code baud}; only written with a serial link)
 * @param group   the first resource group as one haresources line, e.g. {@code node1 198.18.0.100/24/eth1 apache2}
 * @param logfile the daemon's log file on both nodes, or empty for syslog only
 * @param authKey the shared sha1 key of authkeys (kept from an existing authkeys, or random)
 */
public record SetupAnswers(String node, String peer, List<UcastLink> ucast, List<String> serial, int baud,
        String group, String logfile, String authKey) {
    /** ha.cf's {@code baud} when none is given: Heartbeat 3.0.6's default, 19200 bit/s. */
    public static final int DEFAULT_BAUD = 19200;
    /** The log file when none is given (the package's log directory). */
    public static final String DEFAULT_LOGFILE = "/var/log/jheartbeat/ha-log";

    public SetupAnswers {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(peer, "peer");
        ucast = List.copyOf(ucast);
        serial = List.copyOf(serial);
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(logfile, "logfile");
        Objects.requireNonNull(authKey, "authKey");
    }

    /**
     * One UDP link ({@code ucast} lines of ha.cf).
     *
     * @param iface        the interface, on both nodes (e.g. the crossover cable's {@code eth1})
     * @param localAddress this node's IPv4 address on it
     * @param peerAddress  the peer's IPv4 address on it
     */
    public record UcastLink(String iface, String localAddress, String peerAddress) {
        public UcastLink {
            Objects.requireNonNull(iface, "iface");
            Objects.requireNonNull(localAddress, "localAddress");
            Objects.requireNonNull(peerAddress, "peerAddress");
        }
    }
}
