package io.github.redisdelaybridge.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * When a message claimed ahead of its due time may be published: not before its due time on Redis's clock (the clock
 * every instance claims by), read on this process's monotonic clock.
 *
 * <p>Each claim answer says what Redis's clock read while the script ran ({@code redisNow}, whole milliseconds, rounded
 * down). The answer is seen here later than that, so {@code seenAt - redisNow} is an upper bound of how far this
 * process's clock is ahead of Redis's; releasing at {@code due + bound} is never early on Redis's clock. The tightest bound
 * is the one of the answer seen soonest after it ran, so this keeps the smallest of the last one to two seconds
 * ({@link #WINDOW_NANOS}): an answer picked up late (the dispatch thread waited for a core) does not make the messages of
 * every later round late too, and a clock that moves (Redis's is adjusted by NTP) is followed within two seconds.
 */
final class ReleaseClock {

    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final LongSupplier nanoTime;
    private long currentWindowStart;
    private long currentMin = Long.MAX_VALUE;
    private long previousMin = Long.MAX_VALUE;

    ReleaseClock() {
        this(System::nanoTime);
    }

    ReleaseClock(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.currentWindowStart = nanoTime.getAsLong();
    }

    /** A claim answer: Redis's clock read {@code redisNowMs} while the script ran, and the answer was seen here at {@code seenAtNanos}. */
    synchronized void observe(long redisNowMs, long seenAtNanos) {
        long bound = seenAtNanos - TimeUnit.MILLISECONDS.toNanos(redisNowMs);
        long sinceWindowStart = seenAtNanos - currentWindowStart;
        if (sinceWindowStart >= WINDOW_NANOS) {
            // after a pause in claiming (Redis down), the last window is older than the previous one may be: forget it
            previousMin = sinceWindowStart >= 2 * WINDOW_NANOS ? Long.MAX_VALUE : currentMin;
            currentMin = Long.MAX_VALUE;
            currentWindowStart = seenAtNanos;
        }
        currentMin = Math.min(currentMin, bound);
    }

    /** How long from now until {@code dueAtMs} (Redis's clock, epoch ms) has passed for certain; 0 or less: release now. */
    synchronized long nanosUntil(long dueAtMs) {
        long bound = Math.min(currentMin, previousMin);
        if (bound == Long.MAX_VALUE) {
            return 0; // nothing claimed yet, so nothing claimed ahead
        }
        return TimeUnit.MILLISECONDS.toNanos(dueAtMs) + bound - nanoTime.getAsLong();
    }

    /**
     * The latest due time (Redis's clock, epoch ms) that has passed for certain: messages due then or earlier may be published
     * now. One call for a whole claimed batch, where {@link #nanosUntil} per message would take the lock per message.
     */
    synchronized long releasableUpTo() {
        long bound = Math.min(currentMin, previousMin);
        if (bound == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return Math.floorDiv(nanoTime.getAsLong() - bound, TimeUnit.MILLISECONDS.toNanos(1));
    }
}
