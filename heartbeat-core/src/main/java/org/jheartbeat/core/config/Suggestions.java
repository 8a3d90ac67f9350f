package org.jheartbeat.core.config;

import java.util.Objects;
import java.util.Optional;

/**
 * "Did you mean" for unknown keywords and keys: the one edit-distance helper used by the ha.cf
 * parser ({@link HaCfParser}) and the sync config parser. Pure functions, no state.
 */
public final class Suggestions {
    /** Largest edit distance still offered as a suggestion: 2 (a typo or a swapped pair). */
    public static final int MAX_DISTANCE = 2;

    private Suggestions() {
    }

    /**
     * Levenshtein distance: the least number of single-character insertions, deletions and
     * substitutions that turn {@code a} into {@code b}. Case-sensitive, counted in UTF-16 chars.
     *
     * @param a first string, not {@code null}
     * @param b second string, not {@code null}
     * @return the distance, 0 when equal
     * @throws NullPointerException if either argument is {@code null}
     */
    public static int distance(String a, String b) {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * The candidate nearest to {@code word}, if it is within {@link #MAX_DISTANCE}; on a tie the
     * first in iteration order wins.
     *
     * @param word       what the user wrote
     * @param candidates the known words
     * @return the suggestion, or empty when no candidate is close enough
     */
    public static Optional<String> closest(String word, Iterable<String> candidates) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (String candidate : candidates) {
            int d = distance(word, candidate);
            if (d < bestDistance) {
                best = candidate;
                bestDistance = d;
            }
        }
        return Optional.ofNullable(best);
    }
}
