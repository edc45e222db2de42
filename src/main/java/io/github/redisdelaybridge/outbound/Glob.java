package io.github.redisdelaybridge.outbound;

/**
 * A glob of the allow-list: {@code *} stands for any run of characters (line breaks too), every other character for
 * itself. It is matched by a scan that returns at most to the last star, never by a regular expression: a glob with
 * several stars compiled to one would backtrack over a producer's target text in time that grows with a power of its
 * length. The scan takes at most the text's length times the glob's.
 */
final class Glob {

    private final String pattern;

    Glob(String glob) {
        this.pattern = glob.strip();
    }

    /** True if some text starting with {@code prefix} may match: the glob's part before its first star agrees with it. */
    boolean mayMatchSomethingStartingWith(String prefix) {
        int star = pattern.indexOf('*');
        String literal = star < 0 ? pattern : pattern.substring(0, star);
        return star < 0 ? literal.startsWith(prefix) : literal.startsWith(prefix) || prefix.startsWith(literal);
    }

    boolean matches(String text) {
        int p = 0;
        int t = 0;
        int lastStar = -1;
        int textAtLastStar = 0;
        while (t < text.length()) {
            if (p < pattern.length() && pattern.charAt(p) == '*') {
                lastStar = p++;
                textAtLastStar = t;
            } else if (p < pattern.length() && pattern.charAt(p) == text.charAt(t)) {
                p++;
                t++;
            } else if (lastStar >= 0) {
                // the last star takes one more character; earlier stars never need to take back what they took
                p = lastStar + 1;
                t = ++textAtLastStar;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    @Override
    public String toString() {
        return pattern;
    }
}
