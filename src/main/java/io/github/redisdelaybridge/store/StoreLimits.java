package io.github.redisdelaybridge.store;

/**
 * Bounds the store enforces inside its scripts.
 *
 * @param maxDelayMs          a due time further than this from Redis's now is refused
 * @param dedupeWindowMs      how long delivered ids are remembered (0: not at all)
 * @param cancelWindowMs      how long cancelled ids are remembered, so a message arriving after its cancel is dropped (0: not at all)
 * @param deadLetterMaxCount  dead-letter records kept, over all slots; the oldest go first
 * @param deadLetterMaxAgeMs  dead-letter records older than this are dropped
 * @param deadLetterMaxBytes  bytes of dead-letter records kept, over all slots; the oldest go first
 * @param names               the cap on each slot's names hash
 */
public record StoreLimits(long maxDelayMs, long dedupeWindowMs, long cancelWindowMs, long deadLetterMaxCount, long deadLetterMaxAgeMs,
                          long deadLetterMaxBytes, NameLimits names) {

    /** The names hash capped at its defaults ({@link NameLimits#DEFAULT}). */
    public StoreLimits(long maxDelayMs, long dedupeWindowMs, long cancelWindowMs, long deadLetterMaxCount, long deadLetterMaxAgeMs,
                       long deadLetterMaxBytes) {
        this(maxDelayMs, dedupeWindowMs, cancelWindowMs, deadLetterMaxCount, deadLetterMaxAgeMs, deadLetterMaxBytes, NameLimits.DEFAULT);
    }

    /** Dead letters bounded by count and age only (the byte bound at its largest). */
    public StoreLimits(long maxDelayMs, long dedupeWindowMs, long cancelWindowMs, long deadLetterMaxCount, long deadLetterMaxAgeMs) {
        this(maxDelayMs, dedupeWindowMs, cancelWindowMs, deadLetterMaxCount, deadLetterMaxAgeMs, Long.MAX_VALUE / 2);
    }

    /** Dead-letter records one of {@code slots} slots keeps: each slot bounds its own, so the count is shared out (at least 1). */
    public long deadLetterMaxCountPerSlot(int slots) {
        return Math.max(1, deadLetterMaxCount / slots);
    }

    /** Bytes of dead-letter records one of {@code slots} slots keeps, shared out like the count (at least 1). */
    public long deadLetterMaxBytesPerSlot(int slots) {
        return Math.max(1, deadLetterMaxBytes / slots);
    }
}
