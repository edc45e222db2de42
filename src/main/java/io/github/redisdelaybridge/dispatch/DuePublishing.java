package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The publishing half: hands admitted messages to their broker's lane ({@link PublishLanes}), holds those claimed ahead
 * until they are due ({@link ReleaseClock}), publishes them, and completes each message's outcome with its broker's answer,
 * or with a timeout once the broker has not answered within the publish timeout ({@link AnswerDeadlines}). Nothing here
 * waits on a broker on the caller's thread.
 */
final class DuePublishing implements AutoCloseable {

    private final TargetPublisher publisher;
    private final ReleaseClock releaseClock;
    private final BridgeMetrics metrics;
    private final PublishLanes lanes = new PublishLanes();
    private final AnswerDeadlines deadlines;

    DuePublishing(TargetPublisher publisher, long publishTimeoutMs, ReleaseClock releaseClock, BridgeMetrics metrics) {
        this.publisher = publisher;
        this.releaseClock = releaseClock;
        this.metrics = metrics;
        this.deadlines = new AnswerDeadlines(publishTimeoutMs);
    }

    /** Hands the messages (in due order) to their lanes and returns at once; a lane that is shut fails them as not sent. */
    void publish(List<OutgoingMessage> admitted, long now) {
        long releasableUpTo = releaseClock.releasableUpTo();
        Map<ScheduledExecutorService, List<OutgoingMessage>> byLane = new IdentityHashMap<>(2);
        for (OutgoingMessage outgoing : admitted) {
            byLane.computeIfAbsent(lanes.laneOf(outgoing.target), lane -> new ArrayList<>()).add(outgoing);
        }
        byLane.forEach((lane, inDueOrder) -> {
            try {
                publishWhenDue(lane, inDueOrder, releasableUpTo);
            } catch (RejectedExecutionException stopped) {
                inDueOrder.forEach(o -> o.outcome.completeExceptionally(new NotSentException("the bridge is stopping", now)));
            }
        });
    }

    /**
     * Publishes on the lane: what is due by {@code releasableUpTo} at once in one task (a backlog's batch costs one
     * hand-over), the rest in one task per due millisecond, each run when that millisecond has passed on Redis's clock.
     */
    private void publishWhenDue(ScheduledExecutorService lane, List<OutgoingMessage> inDueOrder, long releasableUpTo) {
        int from = 0;
        while (from < inDueOrder.size() && inDueOrder.get(from).message.dueAt() <= releasableUpTo) {
            from++;
        }
        if (from > 0) {
            List<OutgoingMessage> dueNow = inDueOrder.subList(0, from);
            watchAnswers(dueNow, 0);
            lane.execute(() -> dueNow.forEach(this::send));
        }
        while (from < inDueOrder.size()) {
            long dueAt = inDueOrder.get(from).message.dueAt();
            int to = from;
            while (to < inDueOrder.size() && inDueOrder.get(to).message.dueAt() == dueAt) {
                to++;
            }
            List<OutgoingMessage> dueTogether = inDueOrder.subList(from, to);
            long holdNanos = Math.max(0, releaseClock.nanosUntil(dueAt));
            watchAnswers(dueTogether, holdNanos);
            lane.schedule(() -> dueTogether.forEach(this::send), holdNanos, TimeUnit.NANOSECONDS);
            from = to;
        }
    }

    /** Messages handed to a lane together: their broker's answers are due a publish timeout after {@code heldNanos}. */
    private void watchAnswers(List<OutgoingMessage> together, long heldNanos) {
        List<CompletableFuture<Void>> outcomes = new ArrayList<>(together.size());
        for (OutgoingMessage outgoing : together) {
            outcomes.add(outgoing.outcome);
        }
        deadlines.watch(outcomes, heldNanos);
    }

    /** On the broker's lane. */
    private void send(OutgoingMessage outgoing) {
        if (outgoing.outcome.isDone()) {
            return; // its publish timed out while it waited for the lane
        }
        outgoing.sent = true;
        outgoing.sentAtNanos = System.nanoTime();
        try {
            publisher.publish(outgoing.envelope, outgoing.target, outgoing.message.originalDueAt()).whenComplete((ok, failure) -> {
                metrics.publishTook(outgoing.target.broker(), System.nanoTime() - outgoing.sentAtNanos);
                if (failure == null) {
                    outgoing.outcome.complete(null);
                } else {
                    outgoing.outcome.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException refused) {
            outgoing.outcome.completeExceptionally(refused);
        }
    }

    @Override
    public void close() {
        lanes.close();
        deadlines.close();
    }
}
