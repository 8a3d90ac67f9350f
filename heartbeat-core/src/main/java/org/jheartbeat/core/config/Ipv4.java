package org.jheartbeat.core.config;

import java.util.regex.Pattern;

/** IPv4 literal and host-name checks shared by the ha.cf and haresources parsers. Package-private. */
final class Ipv4 {
    private static final Pattern DOTTED = Pattern.compile("[0-9]+(\\.[0-9]+){3}");
    private static final Pattern LOOKS_NUMERIC = Pattern.compile("[0-9.]+");
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\.?");

    private Ipv4() {
    }

    /** True for a dotted-quad {@code a.b.c.d} with every octet 0..255 (decimal, at most 3 digits). */
    static boolean isLiteral(String s) {
        if (!DOTTED.matcher(s).matches()) {
            return false;
        }
        for (String octet : s.split("\\.")) {
            if (octet.length() > 3 || Integer.parseInt(octet) > 255) {
                return false;
            }
        }
        return true;
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
