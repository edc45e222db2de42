package io.github.redisdelaybridge.dispatch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WakeSignalTest {

    private static final long LONG_SLEEP_MS = 3_000;

    @Test
    void freedRoomWakesALoopThatWaitsForRoom() throws Exception {
        WakeSignal signal = new WakeSignal();
        long tookMs = timeOf(() -> signal.awaitRoom(LONG_SLEEP_MS, () -> true), signal::roomFreed);
        assertTrue(tookMs < LONG_SLEEP_MS / 2, "woke only after " + tookMs + " ms");
    }

    @Test
    void freedRoomDoesNotWakeALoopThatSleepsUntilTheNextDueTime() throws Exception {
        WakeSignal signal = new WakeSignal();
        long sleepMs = 600;
        long tookMs = timeOf(() -> signal.await(sleepMs, System.currentTimeMillis() + sleepMs), signal::roomFreed);
        assertTrue(tookMs >= sleepMs - 50, "woken after " + tookMs + " ms of a " + sleepMs + " ms sleep by a settled batch");
    }

    @Test
    void aMessageGivenBackWakesALoopThatSleepsUntilTheNextDueTime() throws Exception {
        WakeSignal signal = new WakeSignal();
        long tookMs = timeOf(() -> signal.await(LONG_SLEEP_MS, System.currentTimeMillis() + LONG_SLEEP_MS), signal::signal);
        assertTrue(tookMs < LONG_SLEEP_MS / 2, "woke only after " + tookMs + " ms");
    }

    @Test
    void roomFreedJustBeforeTheWaitIsNotSleptThrough() throws Exception {
        WakeSignal signal = new WakeSignal();
        long start = System.nanoTime();
        signal.awaitRoom(LONG_SLEEP_MS, () -> false); // the in-flight count dropped between the loop's check and its wait
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMs < LONG_SLEEP_MS / 2, "slept " + tookMs + " ms although room had been freed");
    }

    @Test
    void roomFreedBetweenTheLoopsLastLookAndItsWaitIsNotSleptThrough() throws Exception {
        WakeSignal signal = new WakeSignal();
        long start = System.nanoTime();
        // the settler frees room and signals right after the loop found it still full, before the loop sleeps
        signal.awaitRoom(LONG_SLEEP_MS, () -> {
            signal.roomFreed();
            return true;
        });
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMs < LONG_SLEEP_MS / 2, "slept " + tookMs + " ms through room freed just before the wait");
    }

    private interface Sleep {
        void run() throws InterruptedException;
    }

    /** How long {@code sleep} took when {@code wake} ran on another thread 100 ms after it started. */
    private static long timeOf(Sleep sleep, Runnable wake) throws Exception {
        CompletableFuture<Void> waker = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            wake.run();
        });
        long start = System.nanoTime();
        sleep.run();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        waker.get(10, TimeUnit.SECONDS);
        return tookMs;
    }
}
