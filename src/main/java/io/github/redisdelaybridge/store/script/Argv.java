package io.github.redisdelaybridge.store.script;

import io.github.redisdelaybridge.message.DueTime;
import java.nio.charset.StandardCharsets;

/** How the scripts take their arguments: every ARGV (and KEYS) value is bytes, numbers in decimal. */
public final class Argv {

    private static final byte[] ONE = {'1'};
    private static final byte[] ZERO = {'0'};
    private static final byte[] DELAY = text("delay");
    private static final byte[] AT = text("at");

    private Argv() {
    }

    public static byte[] text(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    /** {@code 1} or {@code 0}. */
    public static byte[] flag(boolean value) {
        return value ? ONE : ZERO;
    }

    /** A due time's mode, {@code delay} (the value is ms from Redis's now) or {@code at} (the value is epoch ms). */
    public static byte[] dueMode(DueTime dueTime) {
        return dueTime instanceof DueTime.AfterDelay ? DELAY : AT;
    }

    public static byte[] dueValue(DueTime dueTime) {
        return number(dueTime instanceof DueTime.AfterDelay delay ? delay.delayMs() : ((DueTime.At) dueTime).epochMs());
    }
}
