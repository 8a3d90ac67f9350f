package org.jheartbeat.export;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link PacemakerExporter} produced.
 *
 * @param cib          the CIB configuration
 * @param corosyncConf the corosync.conf text
 * @param report       one entry per source line (and per sync.yaml item), in file order
 * @param warnings     what the user must act on (serial media, wrapped scripts, no fencing, ...)
 * @param extraFiles   further files to write, by relative path (the OCF wrapper for resource.d scripts)
 */
public record ExportResult(Cib cib, String corosyncConf, List<ReportLine> report, List<String> warnings,
                           Map<String, String> extraFiles) {
    public ExportResult {
        report = List.copyOf(report);
        warnings = List.copyOf(warnings);
        extraFiles = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extraFiles));
    }

    /**
     * One source line and what it became.
     *
     * @param file   e.g. {@code ha.cf}
     * @param line   1-based line
     * @param source the line as written (trimmed)
     * @param became what the export made of it, or why nothing ("not carried over: ...")
     */
    public record ReportLine(String file, int line, String source, String became) {
    }

    /** The report file's text: a header, the warnings, then every source line and what it became. */
    public String reportText() {
        StringBuilder b = new StringBuilder();
        b.append("jheartbeat -> Corosync 3 + Pacemaker 2 export report\n");
        b.append("=====================================================\n\n");
        b.append("Warnings (act on these before starting the new cluster):\n");
        if (warnings.isEmpty()) {
            b.append("  (none)\n");
        }
        for (String w : warnings) {
            b.append("  * ").append(w).append('\n');
        }
        b.append("\nSecrets: cib.xml, pcs.sh and crm.txt hold every resource's and STONITH device's parameters,\n")
                .append("passwords among them, and are written readable by their owner only (mode 600, pcs.sh 700).\n")
                .append("This report leaves out STONITH parameters and authkeys keys.\n");
        b.append("\nEvery source line and what it became:\n");
        String file = null;
        for (ReportLine r : report) {
            if (!r.file().equals(file)) {
                file = r.file();
                b.append('\n').append(file).append(":\n");
            }
            b.append(String.format("  %4d  %s%n        -> %s%n", r.line(), r.source(), r.became()));
        }
        return b.toString();
    }
}
