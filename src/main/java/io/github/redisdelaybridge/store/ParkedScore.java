package io.github.redisdelaybridge.store;

/**
 * The due-set score of a parked message ({@code lua/lib/parked}): its due time plus {@link #OFFSET}, past every due time the
 * bridge accepts, so that no claim reaches it while its due time stays readable.
 */
public final class ParkedScore {

    /** Added to a parked message's due time; {@code PARKED_OFFSET} of {@code lua/lib/parked}. */
    public static final long OFFSET = 4_000_000_000_000_000L;

    private ParkedScore() {
    }

    public static boolean isParked(long score) {
        return score >= OFFSET;
    }

    /** The due time a score stands for, parked or not. */
    public static long dueOf(long score) {
        return isParked(score) ? score - OFFSET : score;
    }
}
