package org.jheartbeat.cli.runtime;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.List;
import java.util.Map;
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
     * written as fields into the object {@code g} is writing.
     *
     * @param watches group key → watched resources
     * @throws IOException only from the generator
     */
    public static void write(JsonGenerator g, Map<String, List<ResourceWatch>> watches) throws IOException {
        g.writeArrayFieldStart("monitor");
        for (Map.Entry<String, List<ResourceWatch>> e : watches.entrySet()) {
            for (ResourceWatch w : e.getValue()) {
                boolean failed = !w.lastFailure().isEmpty();
                g.writeStartObject();
                g.writeStringField("group", e.getKey());
                g.writeStringField("resource", w.resource());
                g.writeNumberField("interval_ms", w.settings().interval().toMillis());
                g.writeNumberField("fail_count", w.failCount());
                g.writeNumberField("restart_limit", w.settings().maxRestarts());
                g.writeNumberField("window_ms", w.settings().window().toMillis());
                g.writeStringField("last_failure", failed ? w.lastFailure() : null);
                if (failed) {
                    g.writeNumberField("last_failure_age_ms", w.lastFailureAge().toMillis());
                } else {
                    g.writeNullField("last_failure_age_ms");
                }
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }
}
