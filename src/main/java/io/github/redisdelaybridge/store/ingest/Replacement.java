package io.github.redisdelaybridge.store.ingest;

/**
 * What a replace of a pending message did ({@code replace.lua}).
 *
 * @param outcome what happened
 * @param dueAt   the new due time (epoch ms, Redis clock) when replaced, else -1
 */
public record Replacement(Outcome outcome, long dueAt) {

    public enum Outcome {
        /** The message now carries the replacement's payload and falls due at {@code dueAt}; id and slot are kept. */
        REPLACED,
        /** Claimed for delivery with its old payload: nothing changed. */
        IN_FLIGHT,
        /** Delivered within the dedupe window: nothing changed. */
        ALREADY_DELIVERED,
        /** Cancelled within the cancel window: nothing changed. */
        ALREADY_CANCELLED,
        /** A dead letter, not delivered unless replayed: nothing changed. */
        DEAD_LETTER,
        /** Never stored, or its records are older than their windows: nothing stored. */
        NOT_FOUND,
        /** The new due time lies beyond the maximum delay measured on Redis's clock: nothing changed. */
        DELAY_TOO_LONG
    }
}
