package io.github.redisdelaybridge.store;

/**
 * A message this instance holds a lease on: it must publish it and then acknowledge or reschedule it.
 * The envelope is kept encoded (wire form: claim.lua expands it) so that a record that cannot be decoded is still
 * dead-lettered as-is.
 *
 * @param leaseDeadline when the lease ends (epoch ms, Redis's clock); also the lease's token, which acknowledge,
 *                      reschedule and dead-letter check: a later claim of this message always has a later one
 */
public record ClaimedMessage(int slot, String messageId, long dueAt, int attempts, byte[] encodedEnvelope, long leaseDeadline) {
}
