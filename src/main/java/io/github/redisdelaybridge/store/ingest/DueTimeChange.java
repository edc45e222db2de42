package io.github.redisdelaybridge.store.ingest;

/**
 * What a reschedule of a pending message did ({@code changeDueTime.lua}).
 *
 * @param outcome what happened
 * @param dueAt   the new due time (epoch ms, Redis clock) when changed, else -1
 */
public record DueTimeChange(Outcome outcome, long dueAt) {

    public enum Outcome {
        /** The message falls due at {@code dueAt} now, instead of its old due time. */
        CHANGED,
        /** Claimed for delivery: its due time can no longer change. */
        IN_FLIGHT,
        /** No pending message with this id (unknown, delivered, cancelled or a dead letter). */
        NOT_PENDING,
        /** The new due time lies beyond the maximum delay measured on Redis's clock: nothing changed. */
        DELAY_TOO_LONG
    }
}
