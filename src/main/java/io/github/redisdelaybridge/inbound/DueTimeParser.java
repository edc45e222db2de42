package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.HeaderNames;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Parses {@code x-delay} and {@code x-deliver-at} text. A delay is a whole number of milliseconds or an ISO-8601
 * duration ({@code PT30S}, {@code PT1.5S}, {@code P1D}): a bare decimal such as {@code 1.5} is refused, because a
 * producer who writes it often means seconds, and would get an almost immediate delivery. Fractions of a millisecond
 * (in a duration, or an instant) are rounded up, never down: a message may be a fraction late, never early.
 */
public final class DueTimeParser {

    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    /** Looks like a number with a fraction or a sign: refused with a detail that says what is accepted. */
    private static final Pattern SIGNED_OR_DECIMAL = Pattern.compile("[-+]?[0-9]*[.,]?[0-9]*");
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
        String value = text.strip();
        long millis;
        boolean wholeMillis = DIGITS.matcher(value).matches();
        if (wholeMillis) {
            millis = value.length() > MAX_DELAY_DIGITS ? Long.MAX_VALUE : Long.parseLong(value);
        } else if (isDuration(value)) {
            millis = durationMillis(value, text, name);
        } else {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, whyNotADelay(value, text, name));
        }
        if (millis > maxDelayMs) {
            throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    name + " " + abbreviate(value) + (wholeMillis ? " ms" : "") + " exceeds the maximum delay of " + maxDelayMs + " ms");
        }
        return new DueTime.AfterDelay(millis);
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
                    + " in days, hours, minutes and seconds such as PT30S, PT1.5S or P1D, got '" + abbreviate(text) + "'");
        }
        if (duration.isNegative()) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " must not be negative, got '" + abbreviate(text) + "'");
        }
        if (duration.compareTo(Duration.ofMillis(maxDelayMs)) > 0) {
            return Long.MAX_VALUE;
        }
        // never early: a part of a millisecond counts as a whole one
        return duration.toMillis() + (duration.getNano() % 1_000_000 == 0 ? 0 : 1);
    }

    private static String whyNotADelay(String value, String text, String name) {
        if (value.startsWith("-")) {
            return name + " must not be negative, got '" + abbreviate(text) + "'";
        }
        if (!value.isEmpty() && SIGNED_OR_DECIMAL.matcher(value).matches()) {
            return name + " must be a whole number of milliseconds (an integer such as 1500), got '" + abbreviate(text)
                    + "'; write fractions or other units as an ISO-8601 duration such as PT1.5S";
        }
        return name + " must be a whole number of milliseconds (an integer such as 1500) or an ISO-8601 duration such as PT30S,"
                + " got '" + abbreviate(text) + "'";
    }

    /** {@code x-deliver-at}: epoch milliseconds, or an ISO-8601 instant such as 2026-12-01T10:00:00Z. */
    public DueTime parseDeliverAt(String text) throws Rejection {
        return parseDeliverAt(text, HeaderNames.DELIVER_AT);
    }

    /** A due time as {@link #parseDeliverAt(String)}, with {@code name} (a header, a JSON field) in the explanation. */
    public DueTime parseDeliverAt(String text, String name) throws Rejection {
        String value = text.strip();
        if (DIGITS.matcher(value).matches()) {
            if (value.length() > 15) {
                throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                        name + " " + abbreviate(value) + " lies beyond the maximum delay of " + maxDelayMs + " ms");
            }
            return new DueTime.At(Long.parseLong(value));
        }
        Instant instant = parseInstant(value);
        if (instant == null) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY,
                    name + " must be epoch milliseconds or an ISO-8601 instant like 2026-12-01T10:00:00Z, got '"
                            + abbreviate(text) + "'");
        }
        if (instant.isBefore(Instant.EPOCH)) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY, name + " " + value + " is before 1970");
        }
        try {
            return new DueTime.At(Math.addExact(instant.toEpochMilli(), instant.getNano() % 1_000_000 == 0 ? 0 : 1));
        } catch (ArithmeticException beyondEpochMillis) {
            throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    name + " " + abbreviate(value) + " lies beyond the maximum delay of " + maxDelayMs + " ms");
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

    static String abbreviate(String text) {
        return text.length() <= 64 ? text : text.substring(0, 61) + "...";
    }
}
