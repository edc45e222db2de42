package io.github.redisdelaybridge.store.ingest;

/**
 * What Redis answered for one {@link ScheduleRequest}.
 *
 * @param outcome what happened
 * @param dueAt   the due time Redis computed (epoch ms) when stored, else -1
 */
public record ScheduleResult(Outcome outcome, long dueAt) {

    public enum Outcome {
        /** Stored; it will be delivered at {@code dueAt}. */
        SCHEDULED,
        /** A message with this id and the same payload is already pending or in flight: this copy was not stored again. */
        DUPLICATE_PENDING,
        /** A message with this id was delivered within the dedupe window: this copy was not stored. */
        DUPLICATE_DELIVERED,
        /** Its due time lies beyond the maximum delay measured on Redis's clock: not stored. */
        DELAY_TOO_LONG,
        /** Its id was cancelled within the cancel window (possibly before it arrived): not stored, the cancel wins. */
        CANCELLED,
        /**
         * A message with this id is pending or in flight (or came earlier in the same batch) with a different payload: this
         * one was not stored, and is not a copy of it.
         */
        DUPLICATE_ID
    }
}
