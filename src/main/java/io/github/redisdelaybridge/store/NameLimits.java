package io.github.redisdelaybridge.store;

/**
 * The cap on a slot's names hash ({@link Keys#names}): names (targets, origin stems, id stems) it holds at most, and their
 * bytes. Producers choose targets and ids, and the hash never forgets a name, so without a cap it would grow by every
 * distinct one. Past the cap a payload whose target or origin stem has no code is stored un-interned, in the wire form, and
 * an id whose stem has none verbatim: nothing is refused, and the message costs its names' bytes until it is delivered.
 *
 * @param maxNamesPerSlot names one slot's hash holds at most ({@code bridge.redis.names.max-per-slot})
 * @param maxBytesPerSlot bytes of names one slot's hash holds at most ({@code bridge.redis.names.max-bytes-per-slot})
 */
public record NameLimits(long maxNamesPerSlot, long maxBytesPerSlot) {

    public static final long DEFAULT_MAX_NAMES_PER_SLOT = 10_000;
    public static final long DEFAULT_MAX_BYTES_PER_SLOT = 1L << 20;
    public static final NameLimits DEFAULT = new NameLimits(DEFAULT_MAX_NAMES_PER_SLOT, DEFAULT_MAX_BYTES_PER_SLOT);

    public NameLimits {
        if (maxNamesPerSlot < 0 || maxBytesPerSlot < 0) {
            throw new IllegalArgumentException("setting bridge.redis.names.max-per-slot and max-bytes-per-slot must not be negative, got "
                    + maxNamesPerSlot + " and " + maxBytesPerSlot);
        }
    }
}
