package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Excerpt;
import io.github.redisdelaybridge.message.HeaderNames;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Parses {@code x-delay} and {@code x-deliver-at} text. A delay is a whole number of milliseconds or an ISO-8601
 * duration ({@code PT30S}, {@code PT1.5S}, {@code P1D}): a bare decimal such as {@code 1.5} is refused, because a
 * producer who writes it often means seconds, and would get an almost immediate delivery. Fractions of a millisecond
 * (in a duration, or an instant) are rounded up, never down: a message may be a fraction late, never early.
 * A text longer than {@link #MAX_TEXT_CHARS} is refused before it is read, and what is read is scanned character by
 * character, so every text costs time in proportion to at most that length.
 */
public final class DueTimeParser {

    /** The longest text read: longer than any valid delay or due time, short enough that nothing read is costly. */
    public static final int MAX_TEXT_CHARS = HeaderNames.MAX_DUE_TIME_BYTES;
    /** Longer digit strings cannot be a delay below Long.MAX_VALUE ms; shorter ones are compared exactly. */
    private static final int MAX_DELAY_DIGITS = 18;

    private final long maxDelayMs;

    public DueTimeParser(long maxDelayMs) {
        this.maxDelayMs = maxDelayMs;
    }

    /**
     * {@code x-delay}: a whole number of milliseconds ({@code 1500}) or a non-negative ISO-8601 duration ({@code PT1.5S};
     * days count 24 hours), surrounding whitespace ignored.
     */
    public DueTime parseDelay(String text) throws Rejection {
        return parseDelay(text, HeaderNames.DELAY);
    }

    /** A delay as {@link #parseDelay(String)}, with {@code name} (a header, a JSON field) in the explanation. */
    public DueTime parseDelay(String text, String name) throws Rejection {
        String value = shortText(text, name).strip();
        long millis;
        boolean wholeMillis = isAsciiDigits(value);
        if (wholeMillis) {
            millis = significantDigits(value) > MAX_DELAY_DIGITS ? Long.MAX_VALUE : Long.parseLong(value);
        } else if (isDuration(value)) {
            millis = durationMillis(value, text, name);
        } else {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, whyNotADelay(value, text, name));
        }
        if (millis > maxDelayMs) {
            throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    name + " " + Excerpt.of(value) + (wholeMillis ? " ms" : "") + " exceeds the maximum delay of " + maxDelayMs + " ms");
        }
        return new DueTime.AfterDelay(millis);
    }

    /** The text, or a rejection when it is longer than any delay or due time is. */
    private static String shortText(String text, String name) throws Rejection {
        if (text.length() > MAX_TEXT_CHARS) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " is " + text.length() + " characters long; a delay or due time"
                    + " has at most " + MAX_TEXT_CHARS + ", got '" + Excerpt.of(text) + "'");
        }
        return text;
    }

    /** One or more of 0-9 and nothing else: Long.parseLong would also take other scripts' digits, which no producer means. */
    private static boolean isAsciiDigits(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return !value.isEmpty();
    }

    /** Digits after the leading zeros: a zero-padded number is as long as its value. */
    private static int significantDigits(String digits) {
        int zeros = 0;
        while (zeros < digits.length() - 1 && digits.charAt(zeros) == '0') {
            zeros++;
        }
        return digits.length() - zeros;
    }

    /** An optional sign, digits, at most one '.' or ',' and digits: a number with a fraction or a sign, e.g. 1.5 or +1500. */
    private static boolean isSignedOrDecimal(String value) {
        int i = value.startsWith("-") || value.startsWith("+") ? 1 : 0;
        boolean separator = false;
        for (; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '.' || c == ',') {
                if (separator) {
                    return false;
                }
                separator = true;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code P...}, {@code -P...} or {@code +P...}, in either case, as {@link Duration#parse} reads them. */
    private static boolean isDuration(String value) {
        int p = value.startsWith("-") || value.startsWith("+") ? 1 : 0;
        return value.length() > p && (value.charAt(p) == 'P' || value.charAt(p) == 'p');
    }

    private long durationMillis(String value, String text, String name) throws Rejection {
        Duration duration;
        try {
            duration = Duration.parse(value);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " must be a whole number of milliseconds or an ISO-8601 duration"
                    + " in days, hours, minutes and seconds such as PT30S, PT1.5S or P1D, got '" + Excerpt.of(text) + "'");
        }
        if (duration.isNegative()) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " must not be negative, got '" + Excerpt.of(text) + "'");
        }
        if (duration.compareTo(Duration.ofMillis(maxDelayMs)) > 0) {
            return Long.MAX_VALUE;
        }
        // never early: a part of a millisecond counts as a whole one
        return duration.toMillis() + (duration.getNano() % 1_000_000 == 0 ? 0 : 1);
    }

    private static String whyNotADelay(String value, String text, String name) {
        if (value.startsWith("-")) {
            return name + " must not be negative, got '" + Excerpt.of(text) + "'";
        }
        if (!value.isEmpty() && isSignedOrDecimal(value)) {
            return name + " must be a whole number of milliseconds (an integer such as 1500), got '" + Excerpt.of(text)
                    + "'; write fractions or other units as an ISO-8601 duration such as PT1.5S";
        }
        return name + " must be a whole number of milliseconds (an integer such as 1500) or an ISO-8601 duration such as PT30S,"
                + " got '" + Excerpt.of(text) + "'";
    }

    /** {@code x-deliver-at}: epoch milliseconds, or an ISO-8601 instant such as 2026-12-01T10:00:00Z. */
    public DueTime parseDeliverAt(String text) throws Rejection {
        return parseDeliverAt(text, HeaderNames.DELIVER_AT);
    }

    /** A due time as {@link #parseDeliverAt(String)}, with {@code name} (a header, a JSON field) in the explanation. */
    public DueTime parseDeliverAt(String text, String name) throws Rejection {
        String value = shortText(text, name).strip();
        if (isAsciiDigits(value)) {
            if (significantDigits(value) > 15) {
                throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                        name + " " + Excerpt.of(value) + " lies beyond the maximum delay of " + maxDelayMs + " ms");
            }
            return new DueTime.At(Long.parseLong(value));
        }
        Instant instant = parseInstant(value);
        if (instant == null) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY,
                    name + " must be epoch milliseconds or an ISO-8601 instant like 2026-12-01T10:00:00Z, got '"
                            + Excerpt.of(text) + "'");
        }
        if (instant.isBefore(Instant.EPOCH)) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " " + Excerpt.of(value) + " is before 1970");
        }
        try {
            return new DueTime.At(Math.addExact(instant.toEpochMilli(), instant.getNano() % 1_000_000 == 0 ? 0 : 1));
        } catch (ArithmeticException beyondEpochMillis) {
            throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    name + " " + Excerpt.of(value) + " lies beyond the maximum delay of " + maxDelayMs + " ms");
        }
    }

    private static Instant parseInstant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notUtc) {
            try {
                return OffsetDateTime.parse(value).toInstant();
            } catch (DateTimeParseException | ArithmeticException notIso) {
                return null;
            }
        } catch (ArithmeticException outOfRange) {
            return null;
        }
    }
}
