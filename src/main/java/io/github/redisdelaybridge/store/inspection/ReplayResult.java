package io.github.redisdelaybridge.store.inspection;

/**
 * What a dead-letter replay did ({@code replayDeadLetter.lua}).
 *
 * @param outcome what happened
 * @param dueAt   the due time (epoch ms, Redis clock) of the scheduled message when replayed, else -1
 */
public record ReplayResult(Outcome outcome, long dueAt) {

    public enum Outcome {
        /** Scheduled again and removed from the dead-letter store. */
        REPLAYED,
        /** A message with the same id is pending or in flight: nothing changed. */
        ID_IN_USE,
        /** No dead letter with this id. */
        NOT_FOUND,
        /** The dead letter was replaced since it was read: nothing changed; read it again. */
        CHANGED_MEANWHILE,
        /** The due time lies beyond the maximum delay: nothing changed. */
        DELAY_TOO_LONG
    }
}
