package io.github.redisdelaybridge.dispatch;

/**
 * @param batchSize        messages claimed per round, over all slots
 * @param maxInFlight      messages published but not yet settled, at most; claiming waits beyond it
 * @param idlePollMs       longest sleep when nothing is due soon: bounds how late a message stored by
 *                         another instance can be noticed
 * @param leaseMs          how long a claim is held before another instance may take it back (at least 1)
 * @param publishTimeoutMs how long to wait for a broker acknowledgement before counting a failure
 * @param redisTimeoutMs   how long to wait for a Redis script before counting a failure
 * @param maxInFlightPerTarget messages one target may have in flight while its broker is not answering (a blocked or
 *                         stalled target); a target whose broker keeps answering is bounded by {@code maxInFlight} only
 * @param claimAheadMs     how long before their due time messages are claimed; each is held in this process until it is due
 *                         ({@link ReleaseClock}), so the claim and the hand-offs to the publishing thread are done by then
 */
public record DispatchSettings(int batchSize, int maxInFlight, long idlePollMs, long leaseMs, long publishTimeoutMs, long redisTimeoutMs,
                               int maxInFlightPerTarget, long claimAheadMs) {

    /** Longest claim-ahead accepted: beyond it, messages sit claimed in memory for no gain in precision. */
    public static final long MAX_CLAIM_AHEAD_MS = 1_000;

    public DispatchSettings {
        if (leaseMs < 1) {
            throw new IllegalArgumentException("bridge.lease.duration-ms must be at least 1, got " + leaseMs);
        }
        if (claimAheadMs < 0 || claimAheadMs > MAX_CLAIM_AHEAD_MS) {
            throw new IllegalArgumentException("bridge.dispatch.claim-ahead-ms must be 0 to " + MAX_CLAIM_AHEAD_MS + ", got " + claimAheadMs);
        }
    }
}
