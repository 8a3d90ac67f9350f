package org.jheartbeat.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link LineDiff#hunks}: GNU diff's output on fixed cases, and a minimal, faithful diff on random texts. */
class LineDiffTest {
    private static final Pattern HEADER = Pattern.compile("@@ -(\\d+),(\\d+) \\+(\\d+),(\\d+) @@");

    @Test
    void twoDistantChangesAreTwoHunksAsGnuDiffPrintsThem() {
        // expected: diff -U1 of the same texts (GNU diffutils 3.8), counts of 1 written out
        List<String> a = List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l");
        List<String> b = List.of("a", "B", "c", "d", "e", "f", "g", "h", "i", "j", "k", "L", "m");
        assertThat(LineDiff.hunks(a, b, 1)).containsExactly("@@ -1,3 +1,3 @@", " a", "-b", "+B", " c",
                "@@ -11,2 +11,3 @@", " k", "-l", "+L", "+m");
        assertThat(LineDiff.hunks(List.of("x", "y"), List.of("y", "z"), 3)).containsExactly("@@ -1,2 +1,2 @@", "-x",
                " y", "+z");
        assertThat(LineDiff.hunks(a, a, 3)).isEmpty();
        assertThat(LineDiff.hunks(List.of(), List.of("n"), 3)).containsExactly("@@ -0,0 +1,1 @@", "+n");
        assertThat(LineDiff.hunks(List.of("o"), List.of(), 3)).containsExactly("@@ -1,1 +0,0 @@", "-o");
    }

    @Test
    void randomTextsGiveAMinimalDiffThatRebuildsBothSides() {
        Random r = new Random(6);
        for (int round = 0; round < 2000; round++) {
            List<String> a = random(r);
            List<String> b = random(r);
            int context = r.nextInt(4);
            List<String> diff = LineDiff.hunks(a, b, context);
            int removed = 0;
            int added = 0;
            int oldPos = 0;
            int newPos = 0;
            int i = 0;
            while (i < diff.size()) {
                Matcher m = HEADER.matcher(diff.get(i));
                assertThat(m.matches()).as("header %s in %s", diff.get(i), diff).isTrue();
                int os = Integer.parseInt(m.group(1));
                int oc = Integer.parseInt(m.group(2));
                int ns = Integer.parseInt(m.group(3));
                int nc = Integer.parseInt(m.group(4));
                int oldFrom = oc == 0 ? os : os - 1;
                int newFrom = nc == 0 ? ns : ns - 1;
                // the lines between hunks are unchanged, and as many on both sides
                assertThat(oldFrom - oldPos).isEqualTo(newFrom - newPos).isGreaterThanOrEqualTo(0);
                assertThat(a.subList(oldPos, oldFrom)).isEqualTo(b.subList(newPos, newFrom));
                List<String> oldSide = new ArrayList<>();
                List<String> newSide = new ArrayList<>();
                i++;
                while (i < diff.size() && !diff.get(i).startsWith("@@")) {
                    String l = diff.get(i++);
                    char t = l.charAt(0);
                    if (t != '+') {
                        oldSide.add(l.substring(1));
                    }
                    if (t != '-') {
                        newSide.add(l.substring(1));
                    }
                    removed += t == '-' ? 1 : 0;
                    added += t == '+' ? 1 : 0;
                }
                assertThat(oldSide).isEqualTo(a.subList(oldFrom, oldFrom + oc));
                assertThat(newSide).isEqualTo(b.subList(newFrom, newFrom + nc));
                oldPos = oldFrom + oc;
                newPos = newFrom + nc;
            }
            assertThat(a.subList(oldPos, a.size())).isEqualTo(b.subList(newPos, b.size()));
            int lcs = lcs(a, b);
            assertThat(removed).as("%s -> %s: %s", a, b, diff).isEqualTo(a.size() - lcs);
            assertThat(added).isEqualTo(b.size() - lcs);
        }
    }

    private static List<String> random(Random r) {
        List<String> l = new ArrayList<>();
        int n = r.nextInt(15);
        for (int i = 0; i < n; i++) {
            l.add(String.valueOf((char) ('a' + r.nextInt(4))));
        }
        return l;
    }

    private static int lcs(List<String> a, List<String> b) {
        int[][] t = new int[a.size() + 1][b.size() + 1];
        for (int i = 1; i <= a.size(); i++) {
            for (int j = 1; j <= b.size(); j++) {
                t[i][j] = a.get(i - 1).equals(b.get(j - 1)) ? t[i - 1][j - 1] + 1 : Math.max(t[i - 1][j], t[i][j - 1]);
            }
        }
        return t[a.size()][b.size()];
    }
}
