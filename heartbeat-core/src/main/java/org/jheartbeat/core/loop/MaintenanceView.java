package org.jheartbeat.core.loop;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Map;
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

    /**
     * The member of {@code hb status --json}, written into the object {@code g} is writing:
     * {@code "maintenance":{"setting":S,"version":N,"cluster":B,"groups":{KEY:S}}}.
     *
     * @throws IOException only from the generator
     */
    public void writeField(JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("maintenance");
        g.writeStringField("setting", setting.describe());
        g.writeNumberField("version", setting.version());
        g.writeBooleanField("cluster", setting.cluster());
        g.writeObjectFieldStart("groups");
        for (Map.Entry<String, String> e : groups.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
