package io.github.redisdelaybridge.dispatch;

import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fails the publishes whose broker has not answered within the publish timeout, with a {@link TimeoutException}, as
 * {@code CompletableFuture.orTimeout} would. One sweep over the publishes still unanswered runs every
 * {@link #sweepEveryMs} instead of a timer per message: a timer per message would take a shared lock and a heap
 * insertion when the message is handed over and a heap removal when its broker answers, on the thread that reads the
 * broker's answers, which must stay free to read them. Publishes are watched in the groups they are handed over in (a
 * claimed batch's messages due at the same time), one queue entry per group, so that the dispatch loop's cost of
 * watching grows with the batches, not with the messages. A publish therefore fails within the last tenth of its timeout
 * rather than at its end: never later, because the lease must outlast the publish timeout (a message must not be claimed
 * again while this instance may still hear from its broker).
 */
final class AnswerDeadlines implements AutoCloseable {

    /** Outcomes handed over together, and when they are due to have been answered (System.nanoTime). */
    private record Watched(List<? extends CompletableFuture<?>> outcomes, long deadlineNanos) {

        /** Whether every outcome is answered. */
        boolean allDone() {
            for (CompletableFuture<?> outcome : outcomes) {
                if (!outcome.isDone()) {
                    return false;
                }
            }
            return true;
        }
    }

    private final long timeoutNanos;
    private final long sweepEveryMs;
    private final long sweepEveryNanos;
    private final Queue<Watched> watched = new ConcurrentLinkedQueue<>();
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
     * Fails each of {@code outcomes} with a TimeoutException if it is still incomplete in the last tenth of the timeout counted
     * from {@code heldNanos} from now: a message claimed ahead is held until it is due before it is published, and that wait is
     * not the broker's (the lease outlasts the publish timeout plus the claim-ahead, so it still ends before the lease).
     */
    void watch(List<? extends CompletableFuture<?>> outcomes, long heldNanos) {
        if (!outcomes.isEmpty()) {
            watched.add(new Watched(outcomes, System.nanoTime() + Math.max(0, heldNanos) + timeoutNanos - sweepEveryNanos));
        }
    }

    /** Outcomes watched in groups that a sweep has not yet seen all answered. */
    int watched() {
        int count = 0;
        for (Watched group : watched) {
            count += group.outcomes().size();
        }
        return count;
    }

    long sweepEveryMs() {
        return sweepEveryMs;
    }

    private void sweep() {
        long now = System.nanoTime();
        for (Iterator<Watched> it = watched.iterator(); it.hasNext(); ) {
            Watched group = it.next();
            if (group.allDone()) {
                it.remove();
            } else if (now - group.deadlineNanos() >= 0) {
                it.remove();
                for (CompletableFuture<?> outcome : group.outcomes()) {
                    outcome.completeExceptionally(new TimeoutException());
                }
            }
        }
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
    }
}
