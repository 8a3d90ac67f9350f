package org.jheartbeat.cli.web;

import static org.jheartbeat.cli.web.Html.esc;
import static org.jheartbeat.cli.web.Html.objects;
import static org.jheartbeat.cli.web.Html.str;

import java.util.Map;

/**
 * The director: each virtual service with its scheduler, and its real servers with forwarding method, weight, check
 * state and connections, from the running director's table ({@code hb lvs status --json}'s object). A real server
 * whose checks fail is taken out of the table or quiesced (weight 0), as ldirectord does: weight 0 reads "out". Pure.
 */
public final class DirectorPage {
    private DirectorPage() {
    }

    /** The page body. */
    public static String body(Snapshot s) {
        StringBuilder b = new StringBuilder(4096);
        b.append("<h1>Director</h1>\n");
        if (s.director().isEmpty()) {
            return b.append("<p class=\"note\" id=\"director-none\">No director table: ").append(esc(s.directorError()))
                    .append("</p>\n").toString();
        }
        var services = objects(s.director().get(), "services");
        if (services.isEmpty()) {
            return b.append("<p id=\"director-none\">The director runs with no virtual service.</p>\n").toString();
        }
        b.append("<table id=\"director\"><tr><th>Virtual service</th><th>Scheduler</th><th>Real server</th><th>Forward</th>")
                .append("<th>Weight</th><th>Check</th><th>Active</th><th>Inactive</th></tr>\n");
        for (Map<String, Object> v : services) {
            String vs = str(v, "protocol", "?") + " " + (v.get("fwmark") != null ? "fwmark " + str(v, "fwmark", "")
                    : str(v, "address", "?") + ":" + str(v, "port", "?"));
            var reals = objects(v, "reals");
            if (reals.isEmpty()) {
                b.append("<tr><td>").append(esc(vs)).append("</td><td>").append(esc(str(v, "scheduler", "")))
                        .append("</td><td colspan=\"6\" class=\"bad\">no real server</td></tr>\n");
            }
            for (Map<String, Object> r : reals) {
                boolean out = "0".equals(str(r, "weight", "1"));
                b.append("<tr><td>").append(esc(vs)).append("</td><td>").append(esc(str(v, "scheduler", "")))
                        .append("</td><td>").append(esc(str(r, "address", "?") + ":" + str(r, "port", "?"))).append("</td><td>")
                        .append(esc(str(r, "forward", ""))).append("</td><td>").append(esc(str(r, "weight", "")))
                        .append("</td><td class=\"").append(out ? "bad\">out" : "good\">in").append("</td><td>")
                        .append(esc(str(r, "activeConns", "0"))).append("</td><td>").append(esc(str(r, "inactConns", "0")))
                        .append("</td></tr>\n");
            }
        }
        return b.append("</table>\n").toString();
    }
}
