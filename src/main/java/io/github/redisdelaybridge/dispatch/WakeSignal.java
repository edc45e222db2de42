package io.github.redisdelaybridge.dispatch;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Where the dispatch loop sleeps between rounds, and what wakes it early: a message stored due before the
 * loop planned to look again ({@link #wakeIfEarlierThan}), a message given back to the due set ({@link #signal}), or,
 * while the loop waits for room in flight ({@link #awaitRoom}), a settled batch that frees some ({@link #roomFreed}).
 * A settled batch does not wake a loop that sleeps until the next due time: it had room, and a claim round then finds
 * nothing due (under a steady load that would be a round of claim calls on every slot for each settled batch).
 */
final class WakeSignal implements DispatchWakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long plannedWakeAt = Long.MAX_VALUE;
    private volatile boolean waitingForRoom;
    private boolean signalled;

    @Override
    public void wakeIfEarlierThan(long dueAtEpochMs) {
        if (dueAtEpochMs < plannedWakeAt) {
            signal();
        }
    }

    /** Wakes the sleeper if it waits for room in flight. Call after the in-flight count has dropped. */
    void roomFreed() {
        if (waitingForRoom) {
            signal();
        }
    }

    /**
     * Sleeps up to {@code millis} while {@code stillFull} holds, or until room is freed ({@link #roomFreed}) or signalled.
     * The wait is announced before {@code stillFull} is read, and a signal from then on ends it, so room freed just
     * before the wait (after the loop last looked) is not slept through.
     */
    void awaitRoom(long millis, BooleanSupplier stillFull) throws InterruptedException {
        clearSignal();
        waitingForRoom = true;
        try {
            if (stillFull.getAsBoolean()) {
                sleepUnlessSignalled(millis, Long.MAX_VALUE);
            }
        } finally {
            waitingForRoom = false;
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
        clearSignal();
        sleepUnlessSignalled(millis, wakeAtRedisTime);
    }

    private void clearSignal() {
        lock.lock();
        try {
            signalled = false;
        } finally {
            lock.unlock();
        }
    }

    /** Sleeps up to {@code millis} unless a signal came since the last {@link #clearSignal}. */
    private void sleepUnlessSignalled(long millis, long wakeAtRedisTime) throws InterruptedException {
        if (millis <= 0) {
            return;
        }
        lock.lock();
        try {
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
