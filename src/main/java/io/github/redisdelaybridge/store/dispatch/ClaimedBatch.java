package io.github.redisdelaybridge.store.dispatch;

import java.util.List;

/**
 * The result of one claim.
 *
 * @param redisNow the Redis clock at claim time (epoch ms)
 * @param nextDue  the due time of the earliest message still waiting in that slot, or -1 if none
 */
public record ClaimedBatch(long redisNow, long nextDue, List<ClaimedMessage> messages) {
}
