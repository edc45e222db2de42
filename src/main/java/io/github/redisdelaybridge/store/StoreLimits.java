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
}
