package org.jheartbeat.cli.runtime;

import java.util.List;
import java.util.Map;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.resources.monitor.GroupMonitor;
import org.jheartbeat.resources.monitor.GroupMonitor.ResourceWatch;

/**
 * The monitoring part of {@code hb status} (docs/design/resources.md, "Monitoring"): for every
 * watched resource its interval, fail count against the restart limit and window, and its latest
 * failure, as Pacemaker's {@code crm_mon --failcounts} shows them. Pure, for the control handler
 * and tests.
 */
public final class MonitorStatus {
    private MonitorStatus() {
    }

    /**
     * The text section, or empty when nothing is watched.
     *
     * @param watches group key → watched resources ({@link
     *                org.jheartbeat.resources.executor.ResourceGroupExecutor#monitorStatus()})
     * @return lines ending in {@code \n}
     */
    public static String render(Map<String, List<ResourceWatch>> watches) {
        if (watches.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Monitoring (fail count: restarts within the window; cleared by"
                + " hb resources cleanup GROUP):\n");
        watches.forEach((group, list) -> {
            for (ResourceWatch w : list) {
                sb.append("  ").append(w.resource());
                if (!w.resource().equals(group)) {
                    sb.append(" (group ").append(group).append(')');
                }
                sb.append(": every ").append(GroupMonitor.human(w.settings().interval()))
                        .append(", fail count ").append(w.failCount()).append(" of ").append(w.settings().maxRestarts())
                        .append(" within ").append(GroupMonitor.human(w.settings().window()));
                if (!w.lastFailure().isEmpty()) {
                    sb.append("; last failure ").append(w.lastFailureAge().toSeconds()).append(" s ago: ")
                            .append(w.lastFailure());
                }
                sb.append('\n');
            }
        });
        return sb.toString();
    }

    /**
     * The JSON member {@code "monitor":[{"group":..,"resource":..,"interval_ms":..,
     * "fail_count":..,"restart_limit":..,"window_ms":..,"last_failure":..|null,"last_failure_age_ms":..|null}]}.
     *
     * @param watches group key → watched resources
     */
    public static String json(Map<String, List<ResourceWatch>> watches) {
        StringBuilder sb = new StringBuilder("\"monitor\":[");
        watches.forEach((group, list) -> {
            for (ResourceWatch w : list) {
                if (sb.charAt(sb.length() - 1) != '[') {
                    sb.append(',');
                }
                boolean failed = !w.lastFailure().isEmpty();
                sb.append("{\"group\":").append(StatusSnapshot.jsonString(group))
                        .append(",\"resource\":").append(StatusSnapshot.jsonString(w.resource()))
                        .append(",\"interval_ms\":").append(w.settings().interval().toMillis())
                        .append(",\"fail_count\":").append(w.failCount())
                        .append(",\"restart_limit\":").append(w.settings().maxRestarts())
                        .append(",\"window_ms\":").append(w.settings().window().toMillis())
                        .append(",\"last_failure\":").append(failed ? StatusSnapshot.jsonString(w.lastFailure()) : "null")
                        .append(",\"last_failure_age_ms\":").append(failed ? Long.toString(w.lastFailureAge().toMillis())
                                : "null")
                        .append('}');
            }
        });
        return sb.append(']').toString();
    }
}
