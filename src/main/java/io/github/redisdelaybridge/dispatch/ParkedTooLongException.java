package io.github.redisdelaybridge.dispatch;

import java.time.Instant;

/**
 * A message of a parked target that has waited longer than {@code bridge.retry.max-age-ms}, as has its target's parking: it
 * is dead-lettered as {@code publish-failed}, not tried again ({@code dispatch/parking/ParkedTargets#tooOld}).
 */
final class ParkedTooLongException extends RuntimeException {

    ParkedTooLongException(String target, long originalDueAt, long parkedSince, long maxAgeMs) {
        super("target " + target + " has been failing and parked since " + Instant.ofEpochMilli(parkedSince) + "; this message, due at "
                + Instant.ofEpochMilli(originalDueAt) + ", waited longer than bridge.retry.max-age-ms (" + maxAgeMs + " ms)", null, false, false);
    }
}
