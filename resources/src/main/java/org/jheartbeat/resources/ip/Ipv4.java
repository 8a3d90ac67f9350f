package org.jheartbeat.resources.ip;

/**
 * Pure helpers for dotted-quad IPv4 addresses held as {@code int} (network byte order, i.e.
 * {@code 198.18.0.1} is {@code 0xC6120001}).
 */
public final class Ipv4 {
    private Ipv4() {
    }

    /**
     * Parses a strict dotted quad: four decimal octets 0..255, no sign, no leading zeros (which
     * inet_aton would read as octal).
     *
     * @param text e.g. {@code 198.18.0.100}
     * @return the address as an int
     * @throws IllegalArgumentException naming the offending part
     */
    public static int parse(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("[" + text + "] is not a dotted-quad IPv4 address");
        }
        int value = 0;
        for (String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(c -> c >= '0' && c <= '9')
                    || (part.length() > 1 && part.charAt(0) == '0')) {
                throw new IllegalArgumentException("bad octet [" + part + "] in IPv4 address [" + text + "]");
            }
            int octet = Integer.parseInt(part);
            if (octet > 255) {
                throw new IllegalArgumentException("octet " + octet + " > 255 in IPv4 address [" + text + "]");
            }
            value = (value << 8) | octet;
        }
        return value;
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
     * @param address candidate address
     * @param network network address
     * @param prefix  network prefix length 0..32
     * @return {@code true} if {@code address} lies in {@code network/prefix}
     */
    public static boolean contains(int network, int prefix, int address) {
        int mask = mask(prefix);
        return (network & mask) == (address & mask);
    }
}
