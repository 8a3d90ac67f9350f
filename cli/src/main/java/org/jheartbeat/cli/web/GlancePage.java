package org.jheartbeat.cli.web;

import static org.jheartbeat.cli.web.Html.esc;
import static org.jheartbeat.cli.web.Html.object;
import static org.jheartbeat.cli.web.Html.objects;
import static org.jheartbeat.cli.web.Html.str;

import java.util.List;
import java.util.Map;

/**
 * The cluster at a glance: nodes and their links, groups with where they run and why, monitored resources,
 * failures, maintenance, and what a two-node cluster without quorum can and cannot promise, in words. Pure:
 * from a {@link Snapshot} to HTML.
 */
public final class GlancePage {
    /** What a two-node cluster without quorum promises, shown under the nodes. */
    static final String TWO_NODE_CAVEAT = "Two nodes, no quorum: each node decides alone from the beats it hears."
            + " If every link fails while both nodes live, each believes the other dead; fencing (STONITH) is what"
            + " keeps both from running the same group then. Without a fencing device, a split brain is possible"
            + " for as long as the links are down.";

    private GlancePage() {
    }

    /**
     * The page body.
     *
     * @param admin whether the viewer may act (action buttons shown)
     */
    public static String body(Snapshot s, boolean admin) {
        StringBuilder b = new StringBuilder(8192);
        b.append("<h1>Cluster</h1>\n");
        if (s.status().isEmpty()) {
            b.append("<p class=\"bad\" id=\"status-error\">The local daemon did not answer: ").append(esc(s.statusError()))
                    .append("</p>\n");
            return b.toString();
        }
        Map<String, Object> st = s.status().get();
        b.append("<p>Seen from <b id=\"local-node\">").append(esc(s.local())).append("</b>; resources here: ")
                .append(esc(str(st, "rsc_status", "?"))).append(", takeover state ")
                .append(esc(str(st, "takeover_state", "?"))).append(".</p>\n");
        if (!s.peerError().isEmpty()) {
            b.append("<p class=\"warn\" id=\"peer-error\">The journal of ").append(esc(s.peer()))
                    .append(" cannot be read: ").append(esc(s.peerError())).append(" (the timeline shows this node's only")
                    .append(s.peerFetchedMillis() > 0 ? ", and the peer's as last fetched" : "").append(").</p>\n");
        }
        nodes(b, st);
        b.append("<p class=\"caveat\" id=\"caveat\">").append(esc(TWO_NODE_CAVEAT)).append(" Fencing here: ")
                .append(esc(str(st, "fencing", "unknown"))).append(".</p>\n");
        groups(b, st);
        monitor(b, st);
        maintenance(b, st);
        failures(b, st);
        if (admin) {
            b.append("<h2>Actions</h2>\n<p class=\"actions\" id=\"actions\">");
            for (Actions.Action a : Actions.Action.values()) {
                b.append("<a class=\"button\" id=\"act-").append(a.id()).append("\" href=\"/confirm?action=")
                        .append(a.id()).append("\">").append(esc(a.title())).append("</a> ");
            }
            b.append("</p>\n");
        } else {
            b.append("<p class=\"note\" id=\"read-only\">You may look but not act: actions are for root and the admin group"
                    + " (jheartbeat.yaml control: admin_group).</p>\n");
        }
        return b.toString();
    }

    private static void nodes(StringBuilder b, Map<String, Object> st) {
        b.append("<h2>Nodes</h2>\n<table id=\"nodes\"><tr><th>Node</th><th>State</th><th>Links</th></tr>\n");
        for (Map<String, Object> n : objects(st, "nodes")) {
            String status = str(n, "status", "?");
            b.append("<tr><td>").append(esc(str(n, "name", "?")))
                    .append(Boolean.TRUE.equals(n.get("local")) ? " (this node)" : "")
                    .append("ping".equals(str(n, "type", "")) ? " (ping node)" : "")
                    .append("</td><td class=\"").append(stateClass(status)).append("\">").append(esc(status))
                    .append("</td><td>");
            object(n, "links").forEach((link, state) -> b.append("<span class=\"link ").append(stateClass(String.valueOf(state)))
                    .append("\">").append(esc(link)).append(": ").append(esc(state)).append("</span> "));
            b.append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void groups(StringBuilder b, Map<String, Object> st) {
        b.append("<h2>Resource groups</h2>\n<table id=\"groups\"><tr><th>Group</th><th>Runs on</th><th>Preferred</th>")
                .append("<th>Here</th><th>Why</th><th>Problem</th></tr>\n");
        Map<String, Object> maint = object(object(st, "maintenance"), "groups");
        for (Map<String, Object> g : objects(st, "groups")) {
            String on = g.get("running_on") != null ? str(g, "running_on", "-")
                    : g.get("running_on_unconfirmed") != null ? str(g, "running_on_unconfirmed", "-") + "?" : "nowhere";
            String why = str(g, "placement", "");
            if (why.isEmpty() && g.get("running_on") != null) {
                why = on.equals(str(g, "preferred_node", "")) ? "its preferred node"
                        : "away from its preferred node " + str(g, "preferred_node", "?");
            }
            if (g.get("disputed") != null) {
                why += (why.isEmpty() ? "" : "; ") + "disputed: " + str(g, "disputed", "");
            }
            if (maint.containsKey(str(g, "key", ""))) {
                why += (why.isEmpty() ? "" : "; ") + "maintenance: " + maint.get(str(g, "key", ""));
            }
            String problem = str(g, "problem", "");
            b.append("<tr data-group=\"").append(esc(str(g, "key", ""))).append("\"><td>").append(esc(str(g, "resources", "")))
                    .append("</td><td class=\"runs-on\">").append(esc(on)).append("</td><td>")
                    .append(esc(str(g, "preferred_node", ""))).append("</td><td>").append(esc(str(g, "state_here", "")))
                    .append("</td><td>").append(esc(why)).append("</td><td class=\"").append(problem.isEmpty() ? "" : "bad")
                    .append("\">").append(esc(problem)).append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void monitor(StringBuilder b, Map<String, Object> st) {
        List<Map<String, Object>> watched = objects(st, "monitor");
        if (watched.isEmpty()) {
            return;
        }
        b.append("<h2>Monitored resources</h2>\n<table id=\"monitor\"><tr><th>Group</th><th>Resource</th>")
                .append("<th>Failures</th><th>Last failure</th></tr>\n");
        for (Map<String, Object> w : watched) {
            String last = str(w, "last_failure", "");
            b.append("<tr><td>").append(esc(str(w, "group", ""))).append("</td><td>").append(esc(str(w, "resource", "")))
                    .append("</td><td class=\"").append("0".equals(str(w, "fail_count", "0")) ? "good" : "bad").append("\">")
                    .append(esc(str(w, "fail_count", "0"))).append(" of ").append(esc(str(w, "restart_limit", "?")))
                    .append("</td><td>").append(esc(last.isEmpty() ? "none" : last)).append("</td></tr>\n");
        }
        b.append("</table>\n");
    }

    private static void maintenance(StringBuilder b, Map<String, Object> st) {
        Map<String, Object> m = object(st, "maintenance");
        boolean on = Boolean.TRUE.equals(m.get("cluster")) || !object(m, "groups").isEmpty();
        b.append("<h2>Maintenance</h2>\n<p id=\"maintenance\" class=\"").append(on ? "warn" : "good").append("\">")
                .append(esc(str(m, "setting", "off"))).append(on ? " (resources are not started, stopped or monitored"
                        + " where maintenance is on)" : "").append("</p>\n");
    }

    private static void failures(StringBuilder b, Map<String, Object> st) {
        StringBuilder f = new StringBuilder();
        for (Map<String, Object> g : objects(st, "groups")) {
            if (g.get("problem") != null) {
                f.append("<li>").append(esc(str(g, "resources", ""))).append(": ").append(esc(str(g, "problem", "")))
                        .append("</li>");
            }
        }
        object(st, "internal_errors_by_kind").forEach((k, v) -> f.append("<li>internal error ").append(esc(k))
                .append(": ").append(esc(v)).append("</li>"));
        if (!"0".equals(str(st, "bad_packets", "0"))) {
            f.append("<li>bad packets: ").append(esc(str(st, "bad_packets", ""))).append("</li>");
        }
        b.append("<h2>Failures</h2>\n").append(f.length() == 0 ? "<p id=\"failures\" class=\"good\">none</p>\n"
                : "<ul id=\"failures\" class=\"bad\">" + f + "</ul>\n");
    }

    /** The CSS class of a node, link or group state. */
    static String stateClass(String state) {
        return switch (state) {
            case "up", "active", "ok", "running" -> "good";
            case "dead", "failed", "down" -> "bad";
            default -> "warn";
        };
    }
}
