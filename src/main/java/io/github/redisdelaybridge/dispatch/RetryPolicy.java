package io.github.redisdelaybridge.dispatch;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with jitter for failed publishes: attempt n waits
 * {@code min(cap, base * factor^(n-1))}, scaled by a random factor in [0.5, 1] so that many messages
 * failing together do not retry in lockstep. After {@code maxAttempts} failures a message is dead-lettered.
 */
public record RetryPolicy(long baseMs, double factor, long capMs, int maxAttempts) {

    public RetryPolicy {
        if (baseMs < 0 || !(factor >= 1) || capMs < baseMs || maxAttempts < 1) {
            throw new IllegalArgumentException("bad retry policy: base=" + baseMs + " factor=" + factor + " cap=" + capMs
                    + " maxAttempts=" + maxAttempts);
        }
    }

    /** True when a message that has now failed {@code failedAttempts} times should not be tried again. */
    public boolean exhausted(int failedAttempts) {
        return failedAttempts >= maxAttempts;
    }

    /** How long to wait before the next attempt, after {@code failedAttempts} failures (at least 1). */
    public long backoffMs(int failedAttempts) {
        double exponential = baseMs * Math.pow(factor, Math.max(0, failedAttempts - 1));
        long capped = (long) Math.min(capMs, exponential);
        return capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
    }
}
