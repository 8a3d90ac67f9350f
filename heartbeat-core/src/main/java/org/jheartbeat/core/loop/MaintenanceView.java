package org.jheartbeat.core.loop;

import java.util.Map;
import org.jheartbeat.core.control.StatusSnapshot;
import org.jheartbeat.core.takeover.Maintenance;

/**
 * What {@code hb maintenance status} and {@code hb status} show.
 *
 * @param setting the cluster's maintenance setting as this node has it
 * @param groups  group key → why it is in maintenance here and where it runs, for the groups in it
 */
public record MaintenanceView(Maintenance setting, Map<String, String> groups) {
    /** The text block of {@code hb status}: {@code Maintenance: off}, or the setting and one line per group. */
    public String render() {
        StringBuilder sb = new StringBuilder("Maintenance: ").append(setting.describe()).append('\n');
        groups.forEach((k, v) -> sb.append("  ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    /** The JSON member of {@code hb status --json}: {@code "maintenance":{"setting":S,"version":N,"groups":{KEY:S}}}. */
    public String json() {
        StringBuilder sb = new StringBuilder("\"maintenance\":{\"setting\":")
                .append(StatusSnapshot.jsonString(setting.describe())).append(",\"version\":")
                .append(setting.version()).append(",\"cluster\":").append(setting.cluster())
                .append(",\"groups\":{");
        int n = 0;
        for (Map.Entry<String, String> e : groups.entrySet()) {
            sb.append(n++ == 0 ? "" : ",").append(StatusSnapshot.jsonString(e.getKey())).append(':')
                    .append(StatusSnapshot.jsonString(e.getValue()));
        }
        return sb.append("}}").toString();
    }
}
