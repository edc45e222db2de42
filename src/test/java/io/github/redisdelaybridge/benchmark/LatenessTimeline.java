package io.github.redisdelaybridge.benchmark;

import java.util.Arrays;

/**
 * Every arrival's due time with its lateness, kept so that one steady load can be judged over windows of due time chosen
 * after the fact (a phase whose end is only known once another target's backlog has drained).
 */
final class LatenessTimeline {

    private long[] dueAt = new long[1 << 14];
    private long[] lateness = new long[1 << 14];
    private int count;

    synchronized void record(long due, long late) {
        if (count == dueAt.length) {
            dueAt = Arrays.copyOf(dueAt, count * 2);
            lateness = Arrays.copyOf(lateness, count * 2);
        }
        dueAt[count] = due;
        lateness[count] = late;
        count++;
    }

    /** "p99 by second of due time: 3 4 40 ..." over [{@code fromDue}, {@code toDue}): where in a window the late ones were. */
    synchronized String p99BySecond(long fromDue, long toDue) {
        StringBuilder line = new StringBuilder("p99 by second of due time:");
        for (long second = fromDue; second < toDue; second += 1_000) {
            line.append(' ').append(window(second, Math.min(toDue, second + 1_000)).percentile(99));
        }
        return line.toString();
    }

    /** The lateness of the arrivals due in [{@code fromDue}, {@code toDue}). */
    synchronized LatencyRecorder window(long fromDue, long toDue) {
        LatencyRecorder window = new LatencyRecorder();
        for (int i = 0; i < count; i++) {
            if (dueAt[i] >= fromDue && dueAt[i] < toDue) {
                window.record(lateness[i]);
            }
        }
        return window;
    }
}
