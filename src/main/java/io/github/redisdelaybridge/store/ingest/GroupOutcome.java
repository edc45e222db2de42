package io.github.redisdelaybridge.store.ingest;

/**
 * What a cancel or reschedule of a whole group did (a dry run: would do), over every slot.
 *
 * @param changed  messages cancelled or rescheduled
 * @param inFlight messages of the group in flight, reported and left alone
 * @param dueAt    the due time given (epoch ms, Redis's clock); -1 for a cancel, or when nothing was changed because the due
 *                 time lies beyond the maximum delay ({@link #tooLate})
 * @param tooLate  true when the new due time lies beyond {@code bridge.delay.max-ms}: nothing was changed
 */
public record GroupOutcome(long changed, long inFlight, long dueAt, boolean tooLate) {
}
