package io.github.redisdelaybridge.message;

import java.nio.charset.StandardCharsets;

/**
 * The start of a producer's text, short enough for a dead-letter detail or a log line whatever the text's length: a
 * detail quotes what was refused, and a megabyte header must not become a megabyte detail.
 */
public final class Excerpt {

    /** Characters of a text kept whole; a longer one is cut to {@code MAX_CHARS - 3} and {@code ...}. */
    public static final int MAX_CHARS = 64;

    private Excerpt() {
    }

    /** The text, or its first characters and {@code ...}. */
    public static String of(String text) {
        return of(text, MAX_CHARS);
    }

    /** The text, or its first {@code maxChars - 3} characters and {@code ...}. */
    public static String of(String text, int maxChars) {
        return text.length() <= maxChars ? text : text.substring(0, maxChars - 3) + "...";
    }

    /** The start of bytes as text (a malformed sequence as U+FFFD), decoding no more of them than it shows. */
    public static String of(byte[] bytes) {
        int shown = Math.min(bytes.length, MAX_CHARS);
        String start = new String(bytes, 0, shown, StandardCharsets.UTF_8);
        return shown == bytes.length ? of(start) : start.substring(0, Math.min(start.length(), MAX_CHARS - 3)) + "...";
    }
}
