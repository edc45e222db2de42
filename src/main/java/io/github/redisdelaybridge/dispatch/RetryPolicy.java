package io.github.redisdelaybridge.dispatch;

import java.util.concurrent.ThreadLocalRandom;

/**
 * When a failed publish is tried again, and for how long. Retries are bounded by time, not by count: a message is retried
 * until its publishes have been failing for longer than {@code maxAgeMs} (counted from its first failed publish, on Redis's
 * clock), so a target that is down for an hour loses nothing and dead-letters nothing. Attempt n waits
 * {@code min(cap, base * factor^(n-1))}, scaled by a random factor in [0.5, 1] so that many messages failing together do not
 * retry in lockstep. {@code maxAttempts} is an optional bound by count on top (0: none, the default).
 */
public record RetryPolicy(long baseMs, double factor, long capMs, long maxAgeMs, int maxAttempts) {

    public RetryPolicy {
        if (baseMs < 0 || !(factor >= 1) || capMs < baseMs || maxAgeMs < 0 || maxAttempts < 0) {
            throw new IllegalArgumentException("bad retry policy: base=" + baseMs + " factor=" + factor + " cap=" + capMs
                    + " maxAge=" + maxAgeMs + " maxAttempts=" + maxAttempts);
        }
    }

    /** True when {@code maxAttempts} is set and a message that has now failed {@code failedAttempts} times reached it. */
    public boolean exhausted(int failedAttempts) {
        return maxAttempts > 0 && failedAttempts >= maxAttempts;
    }

    /** True when a message whose publishes have been failing for {@code failingForMs} should not be tried again. */
    public boolean tooOld(long failingForMs) {
        return failingForMs > maxAgeMs;
    }

    /** How long to wait before the next attempt, after {@code failedAttempts} failures (at least 1). */
    public long backoffMs(int failedAttempts) {
        double exponential = baseMs * Math.pow(factor, Math.max(0, failedAttempts - 1));
        long capped = (long) Math.min(capMs, exponential);
        return capped / 2 + ThreadLocalRandom.current().nextLong(capped / 2 + 1);
    }
}
