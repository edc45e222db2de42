package io.github.redisdelaybridge.store;

/**
 * A message this instance holds a lease on: it must publish it and then acknowledge or reschedule it.
 * The envelope is kept encoded (wire form: claim.lua expands it) so that a record that cannot be decoded is still
 * dead-lettered as-is.
 */
public record ClaimedMessage(int slot, String messageId, long dueAt, int attempts, byte[] encodedEnvelope, String leaseToken) {
}
