package org.jheartbeat.director.check;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * Whether a server certificate names a DNS host, by the rules of RFC 6125 section 6.4 as browsers apply them: the
 * subjectAltName dNSName entries, or the subject's CN when there is none; a {@code *} only as the whole left-most
 * label, matching exactly one label, and not directly above a top-level label ({@code *.test} names nothing).
 * Compared case-insensitively, a trailing dot ignored. Pure: no I/O.
 */
final class CertificateName {
    private CertificateName() {
    }

    /** The DNS names {@code cert} is for (SAN dNSName entries, else the subject CN values). */
    static List<String> namesOf(X509Certificate cert) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> sans = cert.getSubjectAlternativeNames();
            if (sans != null) {
                for (List<?> san : sans) {
                    if (Integer.valueOf(2).equals(san.get(0)) && san.get(1) instanceof String dns) {
                        names.add(dns);
                    }
                }
            }
        } catch (CertificateParsingException e) {
            return names; // an unreadable extension names nothing
        }
        if (names.isEmpty()) {
            try {
                for (Rdn rdn : new LdapName(cert.getSubjectX500Principal().getName()).getRdns()) {
                    if (rdn.getType().equalsIgnoreCase("CN") && rdn.getValue() instanceof String cn) {
                        names.add(cn);
                    }
                }
            } catch (InvalidNameException e) {
                return names;
            }
        }
        return names;
    }

    /** Whether one of {@code names} (from {@link #namesOf}) matches {@code host}. */
    static boolean matches(String host, List<String> names) {
        String h = normalize(host);
        for (String name : names) {
            if (matchesOne(h, normalize(name))) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesOne(String host, String pattern) {
        if (!pattern.startsWith("*.")) {
            return !pattern.contains("*") && pattern.equals(host);
        }
        String parent = pattern.substring(2);
        if (parent.contains("*") || parent.indexOf('.') < 0) {
            return false;
        }
        int dot = host.indexOf('.');
        return dot > 0 && host.substring(dot + 1).equals(parent);
    }

    private static String normalize(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }
}
