package io.github.redisdelaybridge.store.inspection;

/**
 * Counts over all slots, or one ({@code stats.lua}).
 *
 * @param redisNow  Redis's clock (epoch ms)
 * @param delivered ids delivered within the dedupe window
 * @param cancelled ids cancelled within the cancel window (early cancels included)
 * @param pending   messages waiting in the due set, parked ones included
 * @param nextDueAt the earliest due time of a pending message not parked (epoch ms), or -1 if none
 * @param parked    pending messages parked with their target (failing or paused)
 */
public record StoreStats(long redisNow, long pending, long inFlight, long delivered, long cancelled, long dead, long nextDueAt, long parked) {

    /** How long the earliest pending message has been due without being claimed (0 if none is overdue). */
    public long oldestOverdueMs() {
        return nextDueAt < 0 ? 0 : Math.max(0, redisNow - nextDueAt);
    }

    /** The counts of two sets of slots together: the later clock, the sums, the earlier next due time. */
    StoreStats plus(StoreStats other) {
        long next = nextDueAt < 0 ? other.nextDueAt : other.nextDueAt < 0 ? nextDueAt : Math.min(nextDueAt, other.nextDueAt);
        return new StoreStats(Math.max(redisNow, other.redisNow), pending + other.pending, inFlight + other.inFlight,
                delivered + other.delivered, cancelled + other.cancelled, dead + other.dead, next, parked + other.parked);
    }
}
