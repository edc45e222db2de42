package io.github.redisdelaybridge.message;

/** When a message falls due: relative to Redis's clock at storage time, or an absolute instant. */
public sealed interface DueTime {

    /** Due {@code delayMs} after Redis stores it. */
    record AfterDelay(long delayMs) implements DueTime {
    }

    /** Due at {@code epochMs}, possibly already in the past (then it is due at once). */
    record At(long epochMs) implements DueTime {
    }
}
