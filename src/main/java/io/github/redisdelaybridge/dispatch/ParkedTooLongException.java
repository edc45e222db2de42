package io.github.redisdelaybridge.dispatch;

import java.time.Instant;

/**
 * A message of a parked target that has waited longer than {@code bridge.retry.max-age-ms}, as has its target's parking: it
 * is dead-lettered as {@code publish-failed}, not tried again ({@code dispatch/parking/ParkedTargets#tooOld}).
 */
final class ParkedTooLongException extends RuntimeException {

    /** @param lastFailure the target's latest publish failure this instance saw, or null */
    ParkedTooLongException(String target, long originalDueAt, long parkedSince, long maxAgeMs, String lastFailure) {
        super("publishing to " + target + " has been failing, the target parked since " + Instant.ofEpochMilli(parkedSince)
                + "; this message, due at " + Instant.ofEpochMilli(originalDueAt) + ", waited longer than bridge.retry.max-age-ms (" + maxAgeMs
                + " ms)" + (lastFailure == null ? "" : "; last error: " + lastFailure), null, false, false);
    }
}
