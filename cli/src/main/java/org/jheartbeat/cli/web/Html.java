package org.jheartbeat.cli.web;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** HTML helpers shared by the pages: escaping, the frame every page has, times and durations in words. */
public final class Html {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    private Html() {
    }

    /** {@code s} safe as element text and as a quoted attribute value. */
    public static String esc(Object s) {
        String t = String.valueOf(s);
        StringBuilder b = new StringBuilder(t.length() + 16);
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A wall time in the console's zone, to the ms. */
    public static String time(long millis, ZoneId zone) {
        return TIME.format(Instant.ofEpochMilli(millis).atZone(zone));
    }

    /** A duration in ms as people read it: {@code 850 ms}, {@code 4.2 s}, {@code 3 min 5 s}. */
    public static String duration(long ms) {
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        return s / 3600 > 0 ? (s / 3600) + " h " + (s % 3600) / 60 + " min" : s / 60 + " min " + s % 60 + " s";
    }

    /**
     * The whole page: header with the navigation and who is logged in, then {@code body} inside
     * {@code <main id="main">}, which the page's script replaces when the server says something changed.
     *
     * @param user  who is logged in ({@code alice (admin)}), or empty on the login page
     * @param csrf  the session's CSRF token for the logout form, or empty
     */
    public static String page(String title, String path, Optional<String> user, Optional<String> csrf, String body) {
        StringBuilder b = new StringBuilder(4096 + body.length());
        b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(esc(title)).append(" - jheartbeat</title>\n<meta name=\"viewport\" content=\"width=device-width\">")
                .append("<link rel=\"stylesheet\" href=\"/static/console.css\"></head>\n<body>\n<header><b>jheartbeat</b>");
        if (user.isPresent()) {
            for (String[] nav : List.of(new String[] {"/", "Cluster"}, new String[] {"/timeline", "Timeline"},
                    new String[] {"/director", "Director"})) {
                b.append(" <a href=\"").append(nav[0]).append("\"").append(nav[0].equals(path) ? " class=\"here\"" : "")
                        .append(">").append(nav[1]).append("</a>");
            }
            b.append(" <span class=\"who\" id=\"who\">").append(esc(user.get())).append("</span>")
                    .append(" <form method=\"post\" action=\"/logout\" class=\"inline\"><input type=\"hidden\" name=\"csrf\"")
                    .append(" value=\"").append(esc(csrf.orElse(""))).append("\"><button>Log out</button></form>")
                    .append(" <span id=\"live\" class=\"live\">live</span>");
        }
        b.append("</header>\n<main id=\"main\">").append(body).append("</main>\n");
        if (user.isPresent()) {
            b.append("<script src=\"/static/console.js\"></script>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    /** A string field of a JSON object, or {@code dflt} when absent or null. */
    public static String str(Map<String, Object> m, String key, String dflt) {
        Object v = m.get(key);
        return v == null ? dflt : String.valueOf(v);
    }

    /** A list-of-objects field, empty when absent. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> objects(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }

    /** An object field, empty when absent. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Map<?, ?> o ? (Map<String, Object>) o : Map.of();
    }
}
