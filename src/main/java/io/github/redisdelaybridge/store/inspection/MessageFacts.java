package io.github.redisdelaybridge.store.inspection;

import io.github.redisdelaybridge.message.codec.EnvelopeCodec;

/**
 * Everything Redis knows about one message id, read in one step ({@code inspect.lua}). An id can
 * appear in several structures (a dead letter whose id was used again by a new message, say);
 * {@link #state()} says which one counts. Absent values are null; times are epoch ms on Redis's clock.
 *
 * @param redisNow    Redis's clock when read
 * @param dueAt       due time, when pending
 * @param leaseUntil  lease deadline, when in flight
 * @param attempts    failed delivery attempts so far (pending or in flight)
 * @param envelope    the envelope ({@link EnvelopeCodec}, wire form), when pending or in flight
 * @param deliveredAt delivery time, when delivered within the dedupe window
 * @param cancelledAt cancel time, when cancelled within the cancel window
 * @param deadAt      time it was dead-lettered, when it is a dead letter
 * @param deadRecord  the dead-letter record ({@code deadletter/DeadLetterCodec}), when it is a dead letter
 * @param envelopeSize bytes the envelope takes in Redis (its stored form, smaller than the wire form), when
 *                    pending or in flight
 * @param parked      pending, parked with its target (failing or paused): {@code dueAt} is its due time all the same
 */
public record MessageFacts(
        String messageId,
        long redisNow,
        Long dueAt,
        Long leaseUntil,
        int attempts,
        byte[] envelope,
        Long deliveredAt,
        Long cancelledAt,
        Long deadAt,
        byte[] deadRecord,
        Long envelopeSize,
        boolean parked) {

    /** Of a message that is not parked. */
    public MessageFacts(String messageId, long redisNow, Long dueAt, Long leaseUntil, int attempts, byte[] envelope, Long deliveredAt,
                        Long cancelledAt, Long deadAt, byte[] deadRecord, Long envelopeSize) {
        this(messageId, redisNow, dueAt, leaseUntil, attempts, envelope, deliveredAt, cancelledAt, deadAt, deadRecord, envelopeSize, false);
    }

    /** Live states first (what will happen next matters most), then the records of what happened. */
    public MessageState state() {
        if (leaseUntil != null && envelope != null) {
            return MessageState.IN_FLIGHT;
        }
        if (dueAt != null && envelope != null) {
            return parked ? MessageState.PARKED : MessageState.PENDING;
        }
        if (deadRecord != null) {
            return MessageState.DEAD;
        }
        if (cancelledAt != null) {
            return MessageState.CANCELLED;
        }
        if (deliveredAt != null) {
            return MessageState.DELIVERED;
        }
        return MessageState.UNKNOWN;
    }
}
