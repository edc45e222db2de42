package io.github.redisdelaybridge.benchmark;

import java.util.Arrays;

/** Exact latency percentiles from every sample (kept in a growable array, sorted on demand). */
final class LatencyRecorder {

    private long[] samples = new long[1 << 14];
    private int count;
    private boolean sorted = true;

    synchronized void record(long value) {
        if (count == samples.length) {
            samples = Arrays.copyOf(samples, count * 2);
        }
        samples[count++] = value;
        sorted = false;
    }

    /** Every sample, for handing them to another process. */
    synchronized long[] samples() {
        return Arrays.copyOf(samples, count);
    }

    synchronized int count() {
        return count;
    }

    /** p in [0, 100]; the nearest-rank percentile. */
    synchronized long percentile(double p) {
        if (count == 0) {
            return -1;
        }
        sort();
        int rank = (int) Math.ceil(p / 100.0 * count);
        return samples[Math.max(0, Math.min(count - 1, rank - 1))];
    }

    synchronized long max() {
        return count == 0 ? -1 : percentile(100);
    }

    synchronized long min() {
        if (count == 0) {
            return -1;
        }
        sort();
        return samples[0];
    }

    synchronized int countBelow(long threshold) {
        int below = 0;
        for (int i = 0; i < count; i++) {
            if (samples[i] < threshold) {
                below++;
            }
        }
        return below;
    }

    private void sort() {
        if (!sorted) {
            Arrays.sort(samples, 0, count);
            sorted = true;
        }
    }

    /** "p50 3 / p99 12 / max 40 ms (n=1000)". */
    String summary(String unit) {
        return String.format("p50 %d / p99 %d / max %d %s (n=%d)", percentile(50), percentile(99), max(), unit, count());
    }
}
