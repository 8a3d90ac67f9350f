package org.jheartbeat.sync.backup;

import java.util.Locale;

/** Byte counts for log lines and status: decimal units (1 kB = 1000 B), one decimal. */
final class Sizes {
    private Sizes() {
    }

    static String human(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB", "PB"};
        double v = bytes;
        int i = -1;
        while (v >= 1000 && i < units.length - 1) {
            v /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[i]);
    }
}
