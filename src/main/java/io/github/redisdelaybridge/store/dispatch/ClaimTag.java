package io.github.redisdelaybridge.store.dispatch;

import io.github.redisdelaybridge.store.Keys;

/**
 * Names one claim round of one claimer, so that what the round claimed can be given back when its answer never arrives
 * ({@link DispatchStore#claim(int, int, long, ClaimTag)}, {@link DispatchStore#releaseClaim}).
 *
 * @param claimerId random per dispatcher, letters, digits or dashes: its field in the slot's {@link Keys#claims} hash
 * @param round     increases with every round of that claimer
 */
public record ClaimTag(String claimerId, long round) {

    public ClaimTag {
        if (!claimerId.matches("[A-Za-z0-9-]{1,64}")) {
            throw new IllegalArgumentException("claimer id must be 1-64 letters, digits or dashes: " + claimerId);
        }
    }
}
