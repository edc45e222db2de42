package io.github.redisdelaybridge.store.inspection;

import java.util.Arrays;

/**
 * Pending messages by when they fall due: {@code counts[i]} are due in {@code (from + i * width, from + (i + 1) * width]},
 * {@code overdue} at or before {@code from}, {@code later} after the last bucket. {@code from} is Redis's clock (epoch ms).
 */
public record DueHistogram(long from, long overdue, long later, long[] counts) {

    public DueHistogram {
        counts = counts.clone();
    }

    @Override
    public long[] counts() {
        return counts.clone();
    }

    /**
     * Two slots' histograms added up, bucket by bucket. Slots on different Cluster masters may read clocks a few
     * milliseconds apart; the earlier reading is kept, which a chart of minute buckets cannot show.
     */
    DueHistogram plus(DueHistogram other) {
        long[] sum = new long[Math.max(counts.length, other.counts.length)];
        for (int i = 0; i < sum.length; i++) {
            sum[i] = (i < counts.length ? counts[i] : 0) + (i < other.counts.length ? other.counts[i] : 0);
        }
        return new DueHistogram(Math.min(from, other.from), overdue + other.overdue, later + other.later, sum);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DueHistogram that && from == that.from && overdue == that.overdue && later == that.later
                && Arrays.equals(counts, that.counts);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(from) * 31 + Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "DueHistogram[from=" + from + ", overdue=" + overdue + ", later=" + later + ", counts=" + Arrays.toString(counts) + "]";
    }
}
