package io.github.redisdelaybridge.store.inspection;

/**
 * What all slots hold, for the cluster-wide gauges ({@code gauges.lua}).
 *
 * @param redisNow  Redis's clock (epoch ms)
 * @param overdue   pending messages due more than the overdue threshold ago
 * @param oldestDue the earliest due time of a pending message (epoch ms), or -1 if none
 * @param dueSoon   pending messages not yet due that fall due within each of {@link #DUE_SOON_WINDOWS_MS}
 */
public record StoreGauges(long redisNow, long pending, long inFlight, long overdue, long oldestDue, long dead, long[] dueSoon) {

    /** The due-soon windows: 1 min, 10 min, 1 h. */
    static final long[] DUE_SOON_WINDOWS_MS = {60_000, 600_000, 3_600_000};

    /** The window lengths in seconds, in the order of {@link #dueSoon}. */
    public static long[] dueSoonWindowsSeconds() {
        long[] seconds = new long[DUE_SOON_WINDOWS_MS.length];
        for (int i = 0; i < seconds.length; i++) {
            seconds[i] = DUE_SOON_WINDOWS_MS[i] / 1000;
        }
        return seconds;
    }

    /** How long the earliest pending message has been due without being claimed (0 if none is due). */
    public long oldestOverdueMs() {
        return oldestDue < 0 ? 0 : Math.max(0, redisNow - oldestDue);
    }

    /** Whether any pending message is due now (its due time reached, not yet claimed). */
    public boolean anyDue() {
        return oldestDue >= 0 && oldestDue <= redisNow;
    }

    /** The gauges of two sets of slots together: the later clock, the sums, the earlier oldest due time. */
    StoreGauges plus(StoreGauges other) {
        long oldest = oldestDue < 0 ? other.oldestDue : other.oldestDue < 0 ? oldestDue : Math.min(oldestDue, other.oldestDue);
        long[] soon = new long[dueSoon.length];
        for (int i = 0; i < soon.length; i++) {
            soon[i] = dueSoon[i] + other.dueSoon[i];
        }
        return new StoreGauges(Math.max(redisNow, other.redisNow), pending + other.pending, inFlight + other.inFlight,
                overdue + other.overdue, oldest, dead + other.dead, soon);
    }
}
