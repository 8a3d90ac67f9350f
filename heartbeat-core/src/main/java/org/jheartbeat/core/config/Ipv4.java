package org.jheartbeat.core.config;

import java.util.regex.Pattern;

/**
 * The one IPv4 address parser of jheartbeat, used by the config check (ha.cf, haresources) and by
 * the IP address agent, so that a configuration the check accepts is one the agent can start.
 * Addresses are held as {@code int} in network byte order ({@code 198.18.0.1} is {@code 0xC6120001}).
 * Pure.
 *
 * <p>Only strict dotted quads are addresses: four decimal octets 0..255, no sign, no blanks, and
 * no leading zero. A leading zero is refused because the C library's {@code inet_aton}, which
 * Heartbeat's scripts and {@code gethostbyname} rely on, reads {@code 010.0.0.5} as octal
 * ({@code 8.0.0.5}): such an address never means what it appears to.
 */
public final class Ipv4 {
    private static final Pattern LOOKS_NUMERIC = Pattern.compile("[0-9.]+");
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?");

    private Ipv4() {
    }

    /**
     * Parses a strict dotted quad.
     *
     * @param text e.g. {@code 198.18.0.100}
     * @return the address as an int
     * @throws IllegalArgumentException whose message names the offending part and says what to write
     */
    public static int parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("[" + text + "] is not a dotted-quad IPv4 address (a.b.c.d, four"
                    + " octets 0..255)" + (text.contains(":") ? "; IPv6 is not supported here" : ""));
        }
        int value = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("bad octet [" + part + "] in IPv4 address [" + text
                        + "]: each octet is a decimal number 0..255");
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                throw new IllegalArgumentException("octet " + octet + " > 255 in IPv4 address [" + text + "]");
            }
            value = (value << 8) | octet;
        }
        for (String part : parts) {
            if (part.length() > 1 && part.charAt(0) == '0') {
                throw new IllegalArgumentException("octet [" + part + "] of IPv4 address [" + text + "] has a leading"
                        + " zero, which inet_aton reads as octal; write " + format(value));
            }
        }
        return value;
    }

    /** @return {@code true} if {@link #parse(String)} accepts {@code text} */
    public static boolean isLiteral(String text) {
        try {
            parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** @param address an address as int @return its dotted-quad text */
    public static String format(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "."
                + (address & 0xff);
    }

    /** @param prefix 0..32 @return the netmask with {@code prefix} leading one bits */
    public static int mask(int prefix) {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    /**
     * @param network network address
     * @param prefix  network prefix length 0..32
     * @param address candidate address
     * @return {@code true} if {@code address} lies in {@code network/prefix}
     */
    public static boolean contains(int network, int prefix, int address) {
        int mask = mask(prefix);
        return (network & mask) == (address & mask);
    }

    /**
     * The prefix length of a dotted netmask ({@code 255.255.255.128} is 25).
     *
     * @param text a dotted-quad netmask
     * @return its prefix length 0..32
     * @throws IllegalArgumentException if it is not an address, or its one bits are not contiguous
     */
    public static int prefixOfNetmask(String text) {
        int mask = parse(text);
        int bits = Integer.bitCount(mask);
        if (mask != mask(bits)) {
            throw new IllegalArgumentException("netmask " + text + " is not contiguous (its one bits must all come"
                    + " first, e.g. 255.255.255.128); write the prefix length instead, e.g. /25");
        }
        return bits;
    }

    /** True if {@code s} is made only of digits and dots, i.e. it was meant as an IPv4 literal. */
    static boolean looksNumeric(String s) {
        return LOOKS_NUMERIC.matcher(s).matches();
    }

    /** True for an IPv4 literal, or an RFC 1123 host name that is not all digits and dots. */
    static boolean isLiteralOrHostName(String s) {
        return looksNumeric(s) ? isLiteral(s) : HOST_NAME.matcher(s).matches();
    }
}
