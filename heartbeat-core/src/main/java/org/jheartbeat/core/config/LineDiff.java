package org.jheartbeat.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A one-hunk line diff in unified format ({@code @@ -a,b +c,d @@}, then {@code ' '}, {@code -} and
 * {@code +} lines; GNU diffutils "Detailed Unified"), for {@code hb resources ... --dry-run}. It takes
 * the common prefix and suffix of the two texts and shows the middle: exact for
 * {@link HaresourcesDocument} edits, which change one contiguous run of lines.
 */
public final class LineDiff {
    private LineDiff() {
    }

    /**
     * @param oldLines lines before, without line ends
     * @param newLines lines after, without line ends
     * @param context  unchanged lines to show on each side of the change
     * @return the hunk's lines, or an empty list if the texts are equal
     */
    public static List<String> unified(List<String> oldLines, List<String> newLines, int context) {
        int prefix = 0;
        int max = Math.min(oldLines.size(), newLines.size());
        while (prefix < max && oldLines.get(prefix).equals(newLines.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < max - prefix && oldLines.get(oldLines.size() - 1 - suffix)
                .equals(newLines.get(newLines.size() - 1 - suffix))) {
            suffix++;
        }
        if (prefix == oldLines.size() && prefix == newLines.size()) {
            return List.of();
        }
        int before = Math.min(context, prefix);
        int after = Math.min(context, suffix);
        int oldFrom = prefix - before;
        int oldTo = oldLines.size() - suffix + after;
        int newTo = newLines.size() - suffix + after;
        List<String> out = new ArrayList<>();
        out.add("@@ -" + range(oldFrom, oldTo - oldFrom) + " +" + range(oldFrom, newTo - oldFrom) + " @@");
        for (int i = oldFrom; i < prefix; i++) {
            out.add(" " + oldLines.get(i));
        }
        for (int i = prefix; i < oldLines.size() - suffix; i++) {
            out.add("-" + oldLines.get(i));
        }
        for (int i = prefix; i < newLines.size() - suffix; i++) {
            out.add("+" + newLines.get(i));
        }
        for (int i = oldLines.size() - suffix; i < oldTo; i++) {
            out.add(" " + oldLines.get(i));
        }
        return out;
    }

    /** {@code start,count} with 1-based start; an empty range names the line before it (diffutils). */
    private static String range(int from, int count) {
        return (count == 0 ? from : from + 1) + "," + count;
    }
}
