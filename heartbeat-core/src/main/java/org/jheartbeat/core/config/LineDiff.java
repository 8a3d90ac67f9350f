package org.jheartbeat.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Line diffs in unified format ({@code @@ -a,b +c,d @@}, then {@code ' '}, {@code -} and
 * {@code +} lines; GNU diffutils "Detailed Unified"). {@link #unified} is one hunk, for
 * {@code hb resources ... --dry-run}: it takes the common prefix and suffix of the two texts and shows
 * the middle, exact for {@link HaresourcesDocument} edits, which change one contiguous run of lines.
 * {@link #hunks} diffs any two texts (a longest common subsequence), for {@code hb config push}.
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

    /** Largest middle part (old lines times new lines) {@link #hunks} compares line by line. */
    private static final long MAX_CELLS = 1_000_000;

    /**
     * A unified diff of any two texts, in as many hunks as it takes ({@code hb config push}): the
     * changed lines of a longest common subsequence, each run of changes with {@code context}
     * unchanged lines around it, runs closer than {@code 2 * context} lines merged into one hunk, and
     * within a run the removed lines before the added ones (as GNU diff prints them). Texts whose
     * differing middle part is very large (over a million old-times-new lines) are shown as that
     * middle part replaced as a whole.
     *
     * @return the hunks' lines, or an empty list if the texts are equal
     */
    public static List<String> hunks(List<String> oldLines, List<String> newLines, int context) {
        List<int[]> ops = edits(oldLines, newLines);
        List<String> out = new ArrayList<>();
        int n = ops.size();
        int i = 0;
        while (i < n) {
            if (ops.get(i)[0] == EQUAL) {
                i++;
                continue;
            }
            int start = Math.max(0, i - context);
            int j = i;
            int end;
            while (true) {
                while (j < n && ops.get(j)[0] != EQUAL) {
                    j++;
                }
                end = j;
                int k = j;
                while (k < n && ops.get(k)[0] == EQUAL) {
                    k++;
                }
                if (k < n && k - j <= 2 * context) {
                    j = k;
                    continue;
                }
                break;
            }
            int stop = Math.min(n, end + context);
            int oldCount = 0;
            int newCount = 0;
            for (int h = start; h < stop; h++) {
                int t = ops.get(h)[0];
                oldCount += t != INSERT ? 1 : 0;
                newCount += t != DELETE ? 1 : 0;
            }
            out.add("@@ -" + range(ops.get(start)[1], oldCount) + " +" + range(ops.get(start)[2], newCount) + " @@");
            for (int h = start; h < stop; h++) {
                int[] op = ops.get(h);
                out.add(switch (op[0]) {
                    case EQUAL -> " " + oldLines.get(op[1]);
                    case DELETE -> "-" + oldLines.get(op[1]);
                    default -> "+" + newLines.get(op[2]);
                });
            }
            i = stop;
        }
        return out;
    }

    private static final int EQUAL = 0;
    private static final int DELETE = 1;
    private static final int INSERT = 2;

    /** The edit script: {type, old index, new index} per line (indexes = positions before the op). */
    private static List<int[]> edits(List<String> a, List<String> b) {
        int n = a.size();
        int m = b.size();
        int pre = 0;
        while (pre < n && pre < m && a.get(pre).equals(b.get(pre))) {
            pre++;
        }
        int suf = 0;
        while (suf < n - pre && suf < m - pre && a.get(n - 1 - suf).equals(b.get(m - 1 - suf))) {
            suf++;
        }
        List<int[]> ops = new ArrayList<>();
        for (int i = 0; i < pre; i++) {
            ops.add(new int[] {EQUAL, i, i});
        }
        int an = n - suf - pre;
        int bn = m - suf - pre;
        List<int[]> dels = new ArrayList<>();
        List<int[]> ins = new ArrayList<>();
        if ((long) an * bn <= MAX_CELLS) {
            int[][] lcs = new int[an + 1][bn + 1];
            for (int i = an - 1; i >= 0; i--) {
                for (int j = bn - 1; j >= 0; j--) {
                    lcs[i][j] = a.get(pre + i).equals(b.get(pre + j)) ? lcs[i + 1][j + 1] + 1
                            : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
                }
            }
            int i = 0;
            int j = 0;
            while (i < an || j < bn) {
                if (i < an && j < bn && a.get(pre + i).equals(b.get(pre + j))) {
                    flush(ops, dels, ins);
                    ops.add(new int[] {EQUAL, pre + i, pre + j});
                    i++;
                    j++;
                } else if (j >= bn || (i < an && lcs[i + 1][j] >= lcs[i][j + 1])) {
                    dels.add(new int[] {DELETE, pre + i, pre + j});
                    i++;
                } else {
                    ins.add(new int[] {INSERT, pre + i, pre + j});
                    j++;
                }
            }
        } else {
            for (int i = 0; i < an; i++) {
                dels.add(new int[] {DELETE, pre + i, pre});
            }
            for (int j = 0; j < bn; j++) {
                ins.add(new int[] {INSERT, pre + an, pre + j});
            }
        }
        flush(ops, dels, ins);
        for (int k = 0; k < suf; k++) {
            ops.add(new int[] {EQUAL, n - suf + k, m - suf + k});
        }
        return ops;
    }

    /** Appends a run of changes, removals first; an addition's old index is where the run ends. */
    private static void flush(List<int[]> ops, List<int[]> dels, List<int[]> ins) {
        int oldEnd = dels.isEmpty() ? -1 : dels.get(dels.size() - 1)[1] + 1;
        int newStart = ins.isEmpty() ? -1 : ins.get(0)[2];
        for (int[] d : dels) {
            ops.add(ins.isEmpty() ? d : new int[] {DELETE, d[1], newStart});
        }
        for (int[] x : ins) {
            ops.add(dels.isEmpty() ? x : new int[] {INSERT, oldEnd, x[2]});
        }
        dels.clear();
        ins.clear();
    }

    /** {@code start,count} with 1-based start; an empty range names the line before it (diffutils). */
    private static String range(int from, int count) {
        return (count == 0 ? from : from + 1) + "," + count;
    }
}
