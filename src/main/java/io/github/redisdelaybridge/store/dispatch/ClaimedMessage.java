package io.github.redisdelaybridge.store.dispatch;

import io.github.redisdelaybridge.store.form.StandInIds;

/**
 * A message this instance holds a lease on: it must publish it and then acknowledge or reschedule it.
 * The envelope is kept encoded (wire form: {@link ClaimedNames} expands it) so that a record that cannot be decoded is still
 * dead-lettered as-is.
 *
 * @param messageId     the message id ({@link ClaimedNames} reads it from the member); when {@code idResolved}
 *                      is false, a stand-in: {@code unresolvable-member:<hex of the member>} ({@link StandInIds})
 * @param member        the member the message is stored under in Redis, as claimed: acknowledge, reschedule and
 *                      deadLetter use it as given (a packed id, or the id verbatim)
 * @param idResolved    false when the member is packed but could not be turned back into an id (the slot's names
 *                      hash lacks its stem code: the hash was deleted or replaced); the dispatcher dead-letters such a
 *                      message as {@code corrupt-envelope}
 * @param leaseDeadline when the lease ends (epoch ms, Redis's clock); also the lease's token, which acknowledge,
 *                      reschedule and dead-letter check: a later claim of this message always has a later one
 * @param dueAt         its score in the due set when claimed: when it may be published (never before)
 * @param originalDueAt the due time its producer asked for: {@code dueAt}, unless the bridge moved it since (a target over
 *                      its rate limit, a retry); {@code x-delay-due-at} and lateness count from it
 */
public record ClaimedMessage(
        int slot, String messageId, byte[] member, boolean idResolved, long dueAt, int attempts, byte[] encodedEnvelope, long leaseDeadline,
        long originalDueAt) {
}
