package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.HeaderNames;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Parses {@code x-delay} and {@code x-deliver-at} text. Fractions of a millisecond are rounded up,
 * never down: a message may be a fraction late, never early.
 */
public final class DueTimeParser {

    private static final Pattern DECIMAL = Pattern.compile("[0-9]+(\\.[0-9]+)?");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");

    private final long maxDelayMs;

    public DueTimeParser(long maxDelayMs) {
        this.maxDelayMs = maxDelayMs;
    }

    /** {@code x-delay}: a non-negative number of milliseconds, surrounding whitespace ignored. */
    public DueTime parseDelay(String text) throws Rejection {
        return parseDelay(text, HeaderNames.DELAY);
    }

    /** A delay as {@link #parseDelay(String)}, with {@code name} (a header, a JSON field) in the explanation. */
    public DueTime parseDelay(String text, String name) throws Rejection {
        String value = text.strip();
        if (!DECIMAL.matcher(value).matches()) {
            throw new Rejection(DeadLetterReason.INVALID_DELAY,
                    name + " must be a non-negative number of milliseconds, got '" + abbreviate(text) + "'");
        }
        BigDecimal millis = new BigDecimal(value).setScale(0, RoundingMode.CEILING);
        if (millis.compareTo(BigDecimal.valueOf(maxDelayMs)) > 0) {
            throw new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    name + " " + abbreviate(value) + " ms exceeds the maximum delay of " + maxDelayMs + " ms");
        }
        return new DueTime.AfterDelay(millis.longValueExact());
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
