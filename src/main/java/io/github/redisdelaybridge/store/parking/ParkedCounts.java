package io.github.redisdelaybridge.store.parking;

import java.util.List;

/**
 * Parked messages over every slot: {@code parked} in all, and the entries of each target's parked index ({@code targets}[i]:
 * {@code perTarget}[i]), which count its parked messages and any cancelled or moved since they were parked that no return
 * or expiry has read yet.
 */
public record ParkedCounts(long parked, List<String> targets, long[] perTarget) {

    /** The count of one of the targets asked, 0 for another. */
    public long of(String target) {
        int i = targets.indexOf(target);
        return i < 0 ? 0 : perTarget[i];
    }
}
