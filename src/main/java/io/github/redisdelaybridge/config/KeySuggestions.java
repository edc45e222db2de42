package io.github.redisdelaybridge.config;

import java.util.Collection;
import java.util.Comparator;

/** The known key nearest to a misspelt one, for the "did you mean" of an unknown key's error. */
final class KeySuggestions {

    private KeySuggestions() {
    }

    /** The candidate nearest to {@code word} by edit distance (ties: the first in order). */
    static String closest(String word, Collection<String> candidates) {
        return candidates.stream()
                .min(Comparator.comparingInt((String c) -> editDistance(word, c)).thenComparing(Comparator.naturalOrder()))
                .orElse("(none)");
    }

    /** Levenshtein distance. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
