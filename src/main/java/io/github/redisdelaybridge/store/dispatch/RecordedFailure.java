package io.github.redisdelaybridge.store.dispatch;


/**
 * A failed publish as Redis recorded it ({@link DispatchStore#recordFailure}).
 *
 * @param attempts     failed delivery attempts of the message, this one included
 * @param failingSince when its publishes started failing: its first failed publish (epoch ms, Redis's clock)
 * @param redisNow     Redis's clock when this failure was recorded (epoch ms)
 */
public record RecordedFailure(int attempts, long failingSince, long redisNow) {

    /** The caller no longer held the message's lease: nothing was recorded, and the message is no longer its to settle. */
    public static final RecordedFailure LEASE_LOST = new RecordedFailure(-1, -1, -1);

    public boolean leaseLost() {
        return attempts < 0;
    }

    /** How long the message has been failing, on Redis's clock. */
    public long failingForMs() {
        return redisNow - failingSince;
    }
}
