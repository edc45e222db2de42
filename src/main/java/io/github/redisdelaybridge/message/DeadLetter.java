package io.github.redisdelaybridge.message;

import java.util.List;
import java.util.Map;

/**
 * A message the bridge will not deliver, with why. It keeps the producer's key, headers (including
 * the delay headers, so the cause is visible) and body bytes unchanged.
 *
 * <p>The detail is bounded ({@value #MAX_DETAIL_CHARS} characters): it may quote what a producer sent (an
 * {@code x-delay} value, a broker's error text), and a dead letter must stay small enough for its channel.
 *
 * @param target the target it was meant for, or "" when it never had a valid one
 */
public record DeadLetter(
        String messageId,
        DeadLetterReason reason,
        String detail,
        String origin,
        String target,
        int attempts,
        byte[] key,
        List<MessageHeader> headers,
        Map<String, String> properties,
        byte[] body) {

    /** Longest detail kept; longer ones are cut and say so. */
    public static final int MAX_DETAIL_CHARS = 2_000;

    public DeadLetter {
        detail = bounded(detail, MAX_DETAIL_CHARS);
    }

    /** The text cut to at most {@code maxChars} characters (a cut one ends with how much was cut). */
    public static String bounded(String text, int maxChars) {
        if (text == null || text.length() <= maxChars) {
            return text;
        }
        String marker = "... (" + text.length() + " characters, cut)";
        int keep = Math.max(0, maxChars - marker.length());
        if (keep > 0 && Character.isHighSurrogate(text.charAt(keep - 1))) {
            keep--;
        }
        return text.substring(0, keep) + marker;
    }
}
