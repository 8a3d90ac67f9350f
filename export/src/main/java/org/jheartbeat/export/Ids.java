package org.jheartbeat.export;

import java.util.HashSet;
import java.util.Set;

/**
 * XML ids for the CIB: every element's id is unique across the whole CIB and must be an XML NCName
 * (Pacemaker Explained 2.1, "Configuration Layout": "id" attributes). Not thread-safe: one instance
 * per export.
 */
final class Ids {
    private final Set<String> used = new HashSet<>();

    /**
     * @param wanted e.g. {@code ip-198.18.0.100}
     * @return {@code wanted} made a valid id, with {@code -2}, {@code -3}, ... appended if already taken
     */
    String unique(String wanted) {
        String base = sanitize(wanted);
        String id = base;
        for (int n = 2; !used.add(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    /**
     * Characters outside {@code [A-Za-z0-9_.-]} become {@code -}, runs of {@code -} are collapsed, and
     * an id that does not start with a letter or {@code _} gets an {@code r-} prefix.
     */
    static String sanitize(String s) {
        String t = s.replaceAll("[^A-Za-z0-9_.-]", "-").replaceAll("-{2,}", "-").replaceAll("^-|-$", "");
        if (t.isEmpty() || !(Character.isLetter(t.charAt(0)) || t.charAt(0) == '_')) {
            t = "r-" + t;
        }
        return t;
    }
}
