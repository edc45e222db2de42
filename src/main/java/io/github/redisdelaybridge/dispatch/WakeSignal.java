package io.github.redisdelaybridge.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the dispatch loop sleeps between rounds, and what wakes it early: a message stored due before the
 * loop planned to look again ({@link #wakeIfEarlierThan}), or a settled batch that frees room in flight.
 */
final class WakeSignal implements DispatchWakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long plannedWakeAt = Long.MAX_VALUE;
    private boolean signalled;

    @Override
    public void wakeIfEarlierThan(long dueAtEpochMs) {
        if (dueAtEpochMs < plannedWakeAt) {
            signal();
        }
    }

    /** Wakes the sleeper now. */
    void signal() {
        lock.lock();
        try {
            signalled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sleeps up to {@code millis}, or until signalled.
     *
     * @param wakeAtRedisTime when the sleeper plans to look again, on Redis's clock: a message due earlier wakes it
     */
    void await(long millis, long wakeAtRedisTime) throws InterruptedException {
        if (millis <= 0) {
            return;
        }
        lock.lock();
        try {
            signalled = false;
            plannedWakeAt = wakeAtRedisTime;
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (!signalled && nanos > 0) {
                nanos = changed.awaitNanos(nanos);
            }
        } finally {
            plannedWakeAt = Long.MAX_VALUE;
            lock.unlock();
        }
    }
}
