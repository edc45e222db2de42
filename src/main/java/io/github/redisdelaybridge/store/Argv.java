package io.github.redisdelaybridge.store;

import io.github.redisdelaybridge.message.DueTime;
import java.nio.charset.StandardCharsets;

/** How the scripts take their arguments: every ARGV (and KEYS) value is bytes, numbers in decimal. */
final class Argv {

    private static final byte[] ONE = {'1'};
    private static final byte[] ZERO = {'0'};
    private static final byte[] DELAY = text("delay");
    private static final byte[] AT = text("at");

    private Argv() {
    }

    static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code 1} or {@code 0}. */
    static byte[] flag(boolean value) {
        return value ? ONE : ZERO;
    }

    /** A due time's mode, {@code delay} (the value is ms from Redis's now) or {@code at} (the value is epoch ms). */
    static byte[] dueMode(DueTime dueTime) {
        return dueTime instanceof DueTime.AfterDelay ? DELAY : AT;
    }

    static byte[] dueValue(DueTime dueTime) {
        return number(dueTime instanceof DueTime.AfterDelay delay ? delay.delayMs() : ((DueTime.At) dueTime).epochMs());
    }
}
