package io.github.redisdelaybridge.store.dispatch;

import io.github.redisdelaybridge.store.Keys;

/**
 * Names one claim round of one claimer, so that what the round claimed can be given back when its answer never arrives
 * ({@link DispatchStore#claim(int, int, long, ClaimTag)}, {@link DispatchStore#releaseClaim}).
 *
 * @param claimerId {@code <instance id>/<random>}, one per dispatcher: its field in the slot's {@link Keys#claims} hash
 * @param round     increases with every round of that claimer
 */
public record ClaimTag(String claimerId, long round) {

    public ClaimTag {
        if (claimerId.isEmpty() || claimerId.length() > 300 || claimerId.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("claimer id must be 1-300 characters without control characters: " + claimerId);
        }
    }
}
