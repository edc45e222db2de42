package io.github.redisdelaybridge.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class AnswerDeadlinesTest {

    @Test
    void aHeldMessageTimeOutCountsFromItsRelease() throws Exception {
        try (AnswerDeadlines deadlines = new AnswerDeadlines(500)) {
            CompletableFuture<Void> outcome = new CompletableFuture<>();
            long start = System.nanoTime();
            deadlines.watch(List.of(outcome), TimeUnit.MILLISECONDS.toNanos(1_000));
            ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> outcome.get(10, TimeUnit.SECONDS));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertInstanceOf(TimeoutException.class, failed.getCause());
            assertTrue(tookMs >= 1_450, "failed after " + tookMs + " ms: the 1,000 ms hold counted against its 500 ms timeout");
        }
    }

    @Test
    void anUnansweredPublishFailsWithATimeoutInTheLastTenthOfItsTimeout() throws Exception {
        try (AnswerDeadlines deadlines = new AnswerDeadlines(1_000)) {
            CompletableFuture<Void> outcome = new CompletableFuture<>();
            long start = System.nanoTime();
            deadlines.watch(List.of(outcome), 0);
            ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> outcome.get(10, TimeUnit.SECONDS));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertInstanceOf(TimeoutException.class, failed.getCause());
            assertTrue(tookMs >= 900, "failed after " + tookMs + " ms, before the last tenth of its 1,000 ms timeout");
            // the lease outlasts the timeout by a margin of its own; a noisy machine may add scheduling delay, hence the bound
            assertTrue(tookMs < 1_500, "failed only after " + tookMs + " ms");
            assertEquals(0, deadlines.watched(), "a timed-out outcome is no longer watched");
        }
    }

    @Test
    void anAnsweredPublishIsLeftAsItsBrokerAnsweredAndForgottenAtTheNextSweep() throws Exception {
        try (AnswerDeadlines deadlines = new AnswerDeadlines(200)) {
            CompletableFuture<String> delivered = new CompletableFuture<>();
            CompletableFuture<String> refused = new CompletableFuture<>();
            deadlines.watch(List.of(delivered), 0);
            deadlines.watch(List.of(refused), 0);
            delivered.complete("acked");
            IllegalStateException nacked = new IllegalStateException("nacked");
            refused.completeExceptionally(nacked);
            assertEquals(2, deadlines.watched());
            long until = System.currentTimeMillis() + 5_000;
            while (deadlines.watched() > 0 && System.currentTimeMillis() < until) {
                Thread.sleep(deadlines.sweepEveryMs());
            }
            assertEquals(0, deadlines.watched(), "answered outcomes are dropped by the sweep");
            Thread.sleep(400); // past the timeout: nothing may overwrite the broker's answers
            assertEquals("acked", delivered.get());
            assertTrue(refused.isCompletedExceptionally());
            ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, refused::get);
            assertEquals(nacked, failure.getCause());
        }
    }

    @Test
    void manyWatchedOutcomesEachTimeOutOnlyIfUnanswered() throws Exception {
        try (AnswerDeadlines deadlines = new AnswerDeadlines(250)) {
            CompletableFuture<?>[] outcomes = new CompletableFuture<?>[10_000];
            for (int i = 0; i < outcomes.length; i++) {
                outcomes[i] = new CompletableFuture<Void>();
                deadlines.watch(List.of(outcomes[i]), 0);
                if (i % 2 == 0) {
                    ((CompletableFuture<Void>) outcomes[i]).complete(null);
                }
            }
            CompletableFuture.allOf(outcomes).exceptionally(e -> null).get(10, TimeUnit.SECONDS);
            for (int i = 0; i < outcomes.length; i++) {
                assertEquals(i % 2 != 0, outcomes[i].isCompletedExceptionally(), "outcome " + i);
            }
            long until = System.currentTimeMillis() + 5_000;
            while (deadlines.watched() > 0 && System.currentTimeMillis() < until) {
                Thread.sleep(deadlines.sweepEveryMs());
            }
            assertEquals(0, deadlines.watched(), "nothing stays watched once answered or timed out");
        }
    }

    @Test
    void inAGroupOnlyTheUnansweredTimeOut() throws Exception {
        try (AnswerDeadlines deadlines = new AnswerDeadlines(200)) {
            List<CompletableFuture<String>> group = List.of(new CompletableFuture<>(), new CompletableFuture<>(), new CompletableFuture<>());
            deadlines.watch(group, 0);
            group.get(0).complete("acked");
            IllegalStateException nacked = new IllegalStateException("nacked");
            group.get(2).completeExceptionally(nacked);
            assertEquals(3, deadlines.watched());

            ExecutionException timedOut = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> group.get(1).get(10, TimeUnit.SECONDS));
            assertInstanceOf(TimeoutException.class, timedOut.getCause());
            assertEquals("acked", group.get(0).get());
            ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, group.get(2)::get);
            assertEquals(nacked, refused.getCause());
            assertEquals(0, deadlines.watched(), "the group is no longer watched once its deadline passed");
        }
    }
}
