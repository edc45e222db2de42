package io.github.redisdelaybridge.dispatch;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fails the publishes whose broker has not answered within the publish timeout, with a {@link TimeoutException}, as
 * {@code CompletableFuture.orTimeout} would. One sweep over the publishes still unanswered runs every
 * {@link #sweepEveryMs} instead of a timer per message: a timer per message took a shared lock and a heap insertion
 * when the message was handed over and a heap removal when its broker answered, on the thread that reads the broker's
 * answers (a fifth of the RabbitMQ connection thread's samples in a 5,000-message window). A publish therefore fails
 * within the last tenth of its timeout rather than at its end: never later, because the lease must outlast the
 * publish timeout (a message must not be claimed again while this instance may still hear from its broker).
 */
final class AnswerDeadlines implements AutoCloseable {

    private final long timeoutNanos;
    private final long sweepEveryMs;
    private final long sweepEveryNanos;
    /** Each watched outcome and when it is due to have been answered (System.nanoTime). */
    private final Map<CompletableFuture<?>, Long> deadlines = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "dispatch-publish-timeouts");
        thread.setDaemon(true);
        return thread;
    });

    AnswerDeadlines(long timeoutMs) {
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        // a tenth of the timeout, at least every second
        this.sweepEveryMs = Math.max(1, Math.min(1_000, timeoutMs / 10));
        this.sweepEveryNanos = TimeUnit.MILLISECONDS.toNanos(sweepEveryMs);
        sweeper.scheduleWithFixedDelay(this::sweep, sweepEveryMs, sweepEveryMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Fails {@code outcome} with a TimeoutException if it is still incomplete in the last tenth of the timeout counted from
     * {@code heldNanos} from now: a message claimed ahead is held until it is due before it is published, and that wait is not
     * the broker's (the lease outlasts the publish timeout plus the claim-ahead, so it still ends before the lease).
     */
    void watch(CompletableFuture<?> outcome, long heldNanos) {
        deadlines.put(outcome, System.nanoTime() + Math.max(0, heldNanos) + timeoutNanos - sweepEveryNanos);
    }

    /** Outcomes watched and not yet seen complete by a sweep. */
    int watched() {
        return deadlines.size();
    }

    long sweepEveryMs() {
        return sweepEveryMs;
    }

    private void sweep() {
        long now = System.nanoTime();
        for (Iterator<Map.Entry<CompletableFuture<?>, Long>> it = deadlines.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<CompletableFuture<?>, Long> entry = it.next();
            CompletableFuture<?> outcome = entry.getKey();
            if (outcome.isDone()) {
                it.remove();
            } else if (now - entry.getValue() >= 0) {
                it.remove();
                outcome.completeExceptionally(new TimeoutException());
            }
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
