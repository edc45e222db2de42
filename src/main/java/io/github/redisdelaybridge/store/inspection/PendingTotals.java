package io.github.redisdelaybridge.store.inspection;

/**
 * How many pending messages a {@link PendingFilter} covers, counted at one moment over all slots.
 *
 * @param inDueRange every pending message due in the filter's range, exact
 * @param matching   of those, the ones whose target matches too; equal to {@code inDueRange} without a target filter
 * @param exact      false when {@code matching} is estimated: a slot held more messages in range than one call reads the
 *                   target of ({@link InspectionStore#COUNT_SAMPLE_SIZE}), so it read an evenly spaced sample of them
 */
public record PendingTotals(long inDueRange, long matching, boolean exact) {

    /** What one slot's {@code countPending.lua} found: {@code matching} of {@code examined} read, of {@code inRange}. */
    static PendingTotals ofSlot(long inRange, long examined, long matching) {
        if (examined >= inRange) {
            return new PendingTotals(inRange, matching, true);
        }
        return new PendingTotals(inRange, Math.round((double) matching * inRange / examined), false);
    }

    PendingTotals plus(PendingTotals other) {
        return new PendingTotals(inDueRange + other.inDueRange, matching + other.matching, exact && other.exact);
    }
}
