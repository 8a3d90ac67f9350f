package org.jheartbeat.core.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The argument of an {@code IPaddr} or {@code IPaddr2} resource in haresources, parsed once for both
 * the config check ({@link HaresourcesParser}) and the IP address agent, so that the two cannot
 * disagree. Pure.
 *
 * <p>Form, as Heartbeat 3.0.6's {@code resource.d/IPaddr} and {@code IPaddr2} wrappers split it:
 * {@code ip[/prefix[/iface[:label][/broadcast]]]}, or {@code ip/prefix/broadcast} when the third part
 * starts with a digit. The prefix may be a length (1..32) or a dotted netmask with contiguous one
 * bits ({@code 255.255.255.128} is /25). An empty part ({@code 198.18.0.9//eth1}) means "not given".
 * A label ({@code eth0:web}) is added to the address as the OCF IPaddr2 agent does, and like it
 * (and the kernel) the whole label is limited to 15 characters. The wrappers take exactly one
 * argument ({@code $# != 2} prints their usage), so {@code IPaddr::ip::eth0} is refused.
 *
 * @param address   the address to take over, dotted quad
 * @param prefix    network prefix length 1..32, if given
 * @param iface     network interface name (without label), if given
 * @param label     the full interface label ({@code eth0:web}), if given
 * @param broadcast broadcast address, dotted quad, if given
 */
public record IpAddrArgument(String address, OptionalInt prefix, Optional<String> iface, Optional<String> label,
                             Optional<String> broadcast) {
    /** Kernel interface names and labels: at most IFNAMSIZ - 1 = 15 characters. */
    public static final int MAX_IFNAME = 15;
    private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.-]{1,15}");
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9_.:-]+");

    public IpAddrArgument {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(iface, "iface");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(broadcast, "broadcast");
    }

    /**
     * Parses the arguments of an IP resource as haresources gives them ({@code IPaddr2::a::b} has two).
     *
     * @param agent the resource name, {@code IPaddr} or {@code IPaddr2}, for messages
     * @param args  the {@code ::}-separated arguments after the agent name
     * @return the parsed argument
     * @throws IllegalArgumentException with a message that starts {@code IPaddr [arg]: }, says what is
     *         wrong and what to write instead
     */
    public static IpAddrArgument parse(String agent, List<String> args) {
        if (args.isEmpty() || args.get(0).isEmpty()) {
            throw new IllegalArgumentException(agent + " needs an address: write " + agent
                    + "::a.b.c.d/prefix/iface, e.g. " + agent + "::198.18.0.100/24/eth0");
        }
        if (args.size() > 1 && args.get(1).contains("=")) {
            // a name=value option such as op_timeout=90s: the ip/prefix/iface hint below would be nonsense
            throw new IllegalArgumentException("IPaddr [" + String.join("::", args) + "]: " + agent
                    + " takes one argument, the address, and no name=value options such as [" + args.get(1)
                    + "] (op_ timeouts and monitoring are for lsb:, ocf: and systemd: resources); write " + agent
                    + "::" + args.get(0) + ", or ocf:heartbeat:IPaddr2::ip=ADDRESS::" + args.get(1)
                    + " for an address with that option");
        }
        if (args.size() > 1) {
            String second = args.get(1);
            boolean prefixLike = second.matches("[0-9]{1,2}") || second.matches("[0-9.]+");
            String suggestion = args.get(0) + (prefixLike ? "/" + second : "/PREFIX/" + second);
            throw new IllegalArgumentException("IPaddr [" + String.join("::", args) + "]: " + agent
                    + " takes one argument, but '::' separates arguments and this gives " + args.size()
                    + " (the script would only print its usage); write the ip/prefix/iface form: " + agent + "::"
                    + suggestion);
        }
        return parse(args.get(0));
    }

    /**
     * Parses one argument text.
     *
     * @param text e.g. {@code 198.18.0.100/24/eth0}
     * @return the parsed argument
     * @throws IllegalArgumentException with a message that starts {@code IPaddr [text]: }
     */
    public static IpAddrArgument parse(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length > 4) {
            throw bad(text, "too many parts; expected ip[/prefix[/iface[:label][/broadcast]]]");
        }
        String address = ip(text, "address", parts[0]);
        OptionalInt prefix = parts.length > 1 && !parts[1].isEmpty() ? OptionalInt.of(prefix(text, parts[1]))
                : OptionalInt.empty();
        Optional<String> iface = Optional.empty();
        Optional<String> label = Optional.empty();
        Optional<String> broadcast = Optional.empty();
        if (parts.length > 2 && !parts[2].isEmpty()) {
            if (Character.isDigit(parts[2].charAt(0))) {
                if (parts.length > 3) {
                    throw bad(text, "nothing may follow the broadcast address " + parts[2]);
                }
                broadcast = Optional.of(ip(text, "broadcast", parts[2]));
            } else {
                int colon = parts[2].indexOf(':');
                String name = colon < 0 ? parts[2] : parts[2].substring(0, colon);
                if (!IFACE.matcher(name).matches()) {
                    throw bad(text, "bad interface name [" + name + "]: 1.." + MAX_IFNAME
                            + " letters, digits, '_', '.' or '-'");
                }
                iface = Optional.of(name);
                if (colon >= 0) {
                    String full = parts[2];
                    String suffix = full.substring(colon + 1);
                    if (suffix.isEmpty() || !LABEL.matcher(suffix).matches()) {
                        throw bad(text, "bad label [" + full + "]: write iface:label, e.g. " + name + ":web");
                    }
                    if (full.length() > MAX_IFNAME) {
                        throw bad(text, "label [" + full + "] is " + full.length() + " characters; the kernel allows"
                                + " at most " + MAX_IFNAME + " (interface name, ':' and label together)");
                    }
                    label = Optional.of(full);
                }
            }
        }
        if (parts.length > 3 && !parts[3].isEmpty()) {
            broadcast = Optional.of(ip(text, "broadcast", parts[3]));
        }
        return new IpAddrArgument(address, prefix, iface, label, broadcast);
    }

    private static IllegalArgumentException bad(String text, String what) {
        return new IllegalArgumentException("IPaddr [" + text + "]: " + what);
    }

    private static String ip(String text, String what, String part) {
        try {
            Ipv4.parse(part);
            return part;
        } catch (IllegalArgumentException e) {
            throw bad(text, "bad " + what + ": " + e.getMessage());
        }
    }

    private static int prefix(String text, String part) {
        if (part.contains(".")) {
            int bits;
            try {
                bits = Ipv4.prefixOfNetmask(part);
            } catch (IllegalArgumentException e) {
                throw bad(text, "bad netmask: " + e.getMessage());
            }
            if (bits == 0) {
                throw bad(text, "netmask " + part + " is empty; use a prefix 1..32, e.g. /24");
            }
            return bits;
        }
        if (part.isEmpty() || part.length() > 2 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw bad(text, "bad prefix [" + part + "]: expected a prefix length 1..32 or a dotted netmask");
        }
        int bits = Integer.parseInt(part);
        if (bits < 1 || bits > 32) {
            throw bad(text, "prefix [" + part + "] must be 1..32");
        }
        return bits;
    }

    /** @return {@code true} if taking the address over needs the routing table (prefix or iface missing) */
    public boolean needsRouteLookup() {
        return prefix.isEmpty() || iface.isEmpty();
    }

    /** The canonical text: {@code ip[/prefix][/iface[:label]][/broadcast]}, {@code //iface} without a prefix. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(address);
        prefix.ifPresent(p -> sb.append('/').append(p));
        iface.ifPresent(i -> sb.append(prefix.isPresent() ? "/" : "//").append(label.orElse(i)));
        broadcast.ifPresent(b -> sb.append('/').append(b));
        return sb.toString();
    }
}
