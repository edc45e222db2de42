package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import java.util.List;

/**
 * What one claim over every slot brought back.
 *
 * @param redisNow the Redis clock at claim time (epoch ms)
 * @param nextDue  the earliest due time still waiting in any slot, or -1 if none
 * @param messages claimed messages in due order
 */
record ClaimRound(long redisNow, long nextDue, List<ClaimedMessage> messages) {

    /** How long the loop may sleep before it must claim again, {@code aheadMs} before something falls due; at most {@code limitMs}. */
    long sleepMs(long limitMs, long aheadMs) {
        long untilNextClaim = nextDue < 0 ? Long.MAX_VALUE : Math.max(0, nextDue - aheadMs - redisNow);
        return Math.min(limitMs, untilNextClaim);
    }
}
