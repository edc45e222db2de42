package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import io.github.redisdelaybridge.outbound.client.BrokerBlockedException;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes claimed messages and settles each in Redis once its broker answered: the delivered ones acknowledged
 * (grouped per slot, whatever has completed by then), each failed one retried or dead-lettered, each one that was
 * not sent given back for later.
 *
 * <p>Nothing here waits on a broker on the dispatch loop's thread: publish calls run on the lane of their broker
 * ({@link PublishLanes}), settling on a thread of its own. A message claimed ahead of its due time waits on its lane
 * until it is due ({@link ReleaseClock}). Messages settle one by one, not per claimed batch, so a
 * slow target holds up only its own messages, never the acknowledgement of a batch's other messages; and a target
 * that stops answering gets at most {@code bridge.dispatch.max-in-flight-per-target} messages ({@link TargetLoad}).
 * A message not sent ({@link NotSentException}: its broker blocks publishing, its target is at that bound, or it
 * waited for its lane past the publish timeout) goes back to the due set with a delay that grows with how long the
 * cause has held (50 ms to 30 s), and no attempt counted.
 */
final class PublishAndSettle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PublishAndSettle.class);
    /**
     * The shortest wait of a message given back: a target that has been quiet only a moment (a new one whose first
     * confirms are on their way while a burst falls due) should get its messages again as soon as it answers, not a
     * second later; one quiet for long waits about as long as it has been quiet.
     */
    private static final long MIN_DEFER_MS = 50;
    private static final long MAX_DEFER_MS = 30_000;
    private static final long LOG_DEFERRALS_EVERY_MS = 10_000;

    private final DispatchStore store;
    private final TargetPublisher publisher;
    private final RetryOrDeadLetter failures;
    private final long publishTimeoutMs;
    private final BridgeMetrics metrics;
    private final Runnable onSettled;
    private final Runnable onReturnedToDueSet;
    private final TargetLoad load;
    private final ReleaseClock releaseClock;
    private final PublishLanes lanes = new PublishLanes();
    private final ParsedTargets targets = new ParsedTargets();
    private final AnswerDeadlines deadlines;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentLinkedQueue<Publish> answered = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final AtomicLong deferralsSinceLog = new AtomicLong();
    private volatile long lastDeferralLogAt;
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "dispatch-settler");
        thread.setDaemon(true);
        return thread;
    });

    /** One claimed message on its way: where it goes and what became of it. */
    private static final class Publish {
        final ClaimedMessage message;
        final Envelope envelope;
        final Target target;
        final CompletableFuture<Void> outcome = new CompletableFuture<>();
        volatile boolean sent;
        volatile Throwable failure;
        boolean admitted;
        long sentAtNanos;

        Publish(ClaimedMessage message, Envelope envelope, Target target) {
            this.message = message;
            this.envelope = envelope;
            this.target = target;
        }
    }

    /**
     * @param maxInFlightPerTarget messages a target that is not answering may have in flight ({@link TargetLoad})
     * @param onSettled            called after messages are settled (or failed to settle): room in flight has been freed
     * @param onReturnedToDueSet   called after a message went back to the due set (given back, or to be retried), maybe due
     *                             sooner than the dispatch loop plans to look again
     */
    PublishAndSettle(DispatchStore store, TargetPublisher publisher, RetryOrDeadLetter failures, long publishTimeoutMs, int maxInFlightPerTarget,
                     ReleaseClock releaseClock, BridgeMetrics metrics, Runnable onSettled, Runnable onReturnedToDueSet) {
        this.store = store;
        this.releaseClock = releaseClock;
        this.publisher = publisher;
        this.failures = failures;
        this.publishTimeoutMs = publishTimeoutMs;
        this.load = new TargetLoad(maxInFlightPerTarget);
        this.deadlines = new AnswerDeadlines(publishTimeoutMs);
        this.metrics = metrics;
        this.onSettled = onSettled;
        this.onReturnedToDueSet = onReturnedToDueSet;
    }

    /** Messages handed over and not yet settled in Redis. */
    int inFlight() {
        return inFlight.get();
    }

    /**
     * Hands the messages (in due order) to their brokers' lanes and returns at once; each counts as in flight until settled.
     * Those not yet due are published when they are.
     */
    void start(List<ClaimedMessage> claimed) {
        inFlight.addAndGet(claimed.size());
        long now = System.currentTimeMillis();
        long releasableUpTo = releaseClock.releasableUpTo();
        List<Publish> publishes = new ArrayList<>(claimed.size());
        Map<Target, int[]> perTarget = new HashMap<>(4);
        for (ClaimedMessage message : claimed) {
            Publish publish = prepare(message);
            publish.outcome.whenComplete((ok, failure) -> answered(publish, failure));
            if (publish.target != null) { // else unreadable: already failed
                publishes.add(publish);
                perTarget.computeIfAbsent(publish.target, t -> new int[1])[0]++;
            }
        }
        // what each target may take of this batch, asked once per target
        perTarget.forEach((target, count) -> count[0] = load.admit(target, count[0], now));
        Map<ScheduledExecutorService, List<Publish>> byLane = new IdentityHashMap<>(2);
        for (Publish publish : publishes) {
            int[] room = perTarget.get(publish.target);
            if (room[0] == 0) {
                publish.outcome.completeExceptionally(new NotSentException("target " + publish.target.uri() + " has "
                        + load.inFlight(publish.target) + " messages in flight and its broker has not answered for "
                        + (now - load.quietSince(publish.target, now)) + " ms", load.quietSince(publish.target, now)));
                continue;
            }
            room[0]--;
            publish.admitted = true;
            byLane.computeIfAbsent(lanes.laneOf(publish.target), lane -> new ArrayList<>()).add(publish);
        }
        byLane.forEach((lane, inDueOrder) -> {
            try {
                publishWhenDue(lane, inDueOrder, releasableUpTo);
            } catch (RejectedExecutionException stopped) {
                inDueOrder.forEach(p -> p.outcome.completeExceptionally(new NotSentException("the bridge is stopping", now)));
            }
        });
    }

    /**
     * Publishes on the lane: what is due by {@code releasableUpTo} at once in one task (a backlog's batch costs one
     * hand-over), the rest in one task per due millisecond, each run when that millisecond has passed on Redis's clock.
     */
    private void publishWhenDue(ScheduledExecutorService lane, List<Publish> publishes, long releasableUpTo) {
        int from = 0;
        while (from < publishes.size() && publishes.get(from).message.dueAt() <= releasableUpTo) {
            from++;
        }
        if (from > 0) {
            List<Publish> dueNow = publishes.subList(0, from);
            watchAnswers(dueNow, 0);
            lane.execute(() -> dueNow.forEach(this::publish));
        }
        while (from < publishes.size()) {
            long dueAt = publishes.get(from).message.dueAt();
            int to = from;
            while (to < publishes.size() && publishes.get(to).message.dueAt() == dueAt) {
                to++;
            }
            List<Publish> dueTogether = publishes.subList(from, to);
            long holdNanos = Math.max(0, releaseClock.nanosUntil(dueAt));
            watchAnswers(dueTogether, holdNanos);
            lane.schedule(() -> dueTogether.forEach(this::publish), holdNanos, TimeUnit.NANOSECONDS);
            from = to;
        }
    }

    /** Publishes handed to a lane together: their broker's answers are due a publish timeout after {@code heldNanos}. */
    private void watchAnswers(List<Publish> publishes, long heldNanos) {
        List<CompletableFuture<Void>> outcomes = new ArrayList<>(publishes.size());
        for (Publish publish : publishes) {
            outcomes.add(publish.outcome);
        }
        deadlines.watch(outcomes, heldNanos);
    }

    private Publish prepare(ClaimedMessage message) {
        if (message.encodedEnvelope() == null) {
            Publish publish = new Publish(message, null, null);
            publish.outcome.completeExceptionally(new PayloadMissingException(message));
            return publish;
        }
        try {
            if (!message.idResolved()) {
                throw new IllegalArgumentException("message id still packed in Redis's stored form: the bridge could not turn the stem code of"
                        + " member " + HexFormat.of().formatHex(message.member()) + " back into a name, because the slot's names hash lacks it"
                        + " (was that key deleted or replaced?)");
            }
            Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
            return new Publish(message, envelope, targets.parse(envelope.target()));
        } catch (RuntimeException unreadable) {
            Publish publish = new Publish(message, null, null);
            publish.outcome.completeExceptionally(new UnreadableRecordException(unreadable));
            return publish;
        }
    }

    /** On the broker's lane. */
    private void publish(Publish publish) {
        if (publish.outcome.isDone()) {
            return; // its publish timed out while it waited for the lane
        }
        publish.sent = true;
        publish.sentAtNanos = System.nanoTime();
        try {
            publisher.publish(publish.envelope, publish.target, publish.message.dueAt()).whenComplete((ok, failure) -> {
                metrics.publishTook(kindOf(publish.target), System.nanoTime() - publish.sentAtNanos);
                if (failure == null) {
                    publish.outcome.complete(null);
                } else {
                    publish.outcome.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException refused) {
            publish.outcome.completeExceptionally(refused);
        }
    }

    /** Whatever thread completed the publish: queue it for settling. */
    private void answered(Publish publish, Throwable failure) {
        Throwable cause = failure == null ? null : Failures.unwrap(failure);
        publish.failure = cause;
        if (publish.admitted && notSent(publish) == null && !(cause instanceof TimeoutException)) {
            load.answered(publish.target, System.currentTimeMillis());
        }
        answered.add(publish);
        if (drainQueued.compareAndSet(false, true)) {
            try {
                settler.execute(this::settleAnswered);
            } catch (RejectedExecutionException stopped) {
                drainQueued.set(false);
            }
        }
    }

    /** The reason a failed publish was never sent, or null if it was sent (or succeeded). */
    private NotSentException notSent(Publish publish) {
        Throwable failure = publish.failure;
        if (failure instanceof NotSentException notSent) {
            return notSent;
        }
        if (failure instanceof BrokerBlockedException blocked) {
            return new NotSentException(blocked.getMessage(), blocked.blockedSinceEpochMs());
        }
        if (failure instanceof TimeoutException && !publish.sent) {
            return new NotSentException("waited " + publishTimeoutMs + " ms for its turn on the " + publish.target.uri()
                    + " lane, behind a publish that does not return", System.currentTimeMillis() - publishTimeoutMs);
        }
        return null;
    }

    /** On the settler thread: settles everything answered so far. */
    private void settleAnswered() {
        drainQueued.set(false);
        Map<Integer, List<Publish>> deliveredBySlot = new TreeMap<>();
        long now = System.currentTimeMillis();
        int deliveredToKafka = 0;
        int deliveredToRabbitMq = 0;
        for (Publish publish; (publish = answered.poll()) != null; ) {
            if (publish.failure == null) {
                deliveredBySlot.computeIfAbsent(publish.message.slot(), s -> new ArrayList<>()).add(publish);
                String kind = kindOf(publish.target);
                metrics.lateness(kind, now - publish.message.dueAt());
                if (publish.target instanceof Target.Kafka) {
                    deliveredToKafka++;
                } else {
                    deliveredToRabbitMq++;
                }
                continue;
            }
            Publish failed = publish;
            NotSentException notSent = notSent(failed);
            finishWhenSettled(List.of(failed), true, () -> notSent != null ? giveBack(failed, notSent, now)
                    : failures.publishFailed(failed.message,
                    failed.envelope == null ? null : failed.envelope.target(), failed.failure));
        }
        metrics.delivered("kafka", deliveredToKafka);
        metrics.delivered("rabbitmq", deliveredToRabbitMq);
        deliveredBySlot.forEach((slot, publishes) -> finishWhenSettled(publishes, false,
                () -> store.acknowledge(slot, publishes.stream().map(p -> p.message).toList())));
    }

    /** The {@code kind} label of a target's broker. */
    private static String kindOf(Target target) {
        return target instanceof Target.Kafka ? "kafka" : "rabbitmq";
    }

    /** Back to the due set, due after a wait that grows with how long the cause has held; no attempt counted. */
    private CompletableFuture<?> giveBack(Publish publish, NotSentException notSent, long now) {
        long held = Math.max(0, now - notSent.waitingSinceEpochMs());
        long deferMs = Math.min(MAX_DEFER_MS, Math.max(MIN_DEFER_MS, held));
        deferMs = deferMs / 2 + ThreadLocalRandom.current().nextLong(deferMs / 2 + 1);
        // a message claimed ahead and not sent goes back no earlier than it was due: never early
        deferMs = Math.max(deferMs, TimeUnit.NANOSECONDS.toMillis(releaseClock.nanosUntil(publish.message.dueAt()) + 999_999));
        metrics.publishDeferred();
        long sinceLog = deferralsSinceLog.incrementAndGet();
        // a target quiet for less than a second is backpressure in a burst, not news
        if (held >= TargetLoad.PROGRESS_WINDOW_MS && now - lastDeferralLogAt >= LOG_DEFERRALS_EVERY_MS) {
            lastDeferralLogAt = now;
            deferralsSinceLog.set(0);
            LOG.warn("{} message(s) not sent and given back to Redis for later, no attempt counted (logged at most every {} s);"
                    + " latest: {} for {}, retried in {} ms: {}", sinceLog, LOG_DEFERRALS_EVERY_MS / 1000, publish.message.messageId(),
                    publish.target.uri(), deferMs, notSent.getMessage());
        }
        return store.reschedule(publish.message, deferMs, false);
    }

    /** {@code failed}: the settlement may put the messages back in the due set (a retry, a give-back) rather than remove them. */
    private void finishWhenSettled(List<Publish> publishes, boolean failed, java.util.function.Supplier<CompletableFuture<?>> settlement) {
        CompletableFuture<?> settled;
        try {
            settled = settlement.get();
        } catch (RuntimeException e) {
            settled = CompletableFuture.failedFuture(e);
        }
        settled.whenComplete((ok, failure) -> {
            if (failure != null) {
                // The messages stay in flight in Redis; their leases expire and they are delivered again (at-least-once).
                LOG.warn("could not settle {} messages in Redis; they are redelivered after their lease expires: {}",
                        publishes.size(), Failures.rootMessage(failure));
            }
            Map<Target, Integer> admitted = new HashMap<>(4);
            for (Publish publish : publishes) {
                if (publish.admitted) {
                    admitted.merge(publish.target, 1, Integer::sum);
                }
            }
            admitted.forEach(load::release);
            inFlight.addAndGet(-publishes.size());
            onSettled.run();
            if (failed) {
                onReturnedToDueSet.run();
            }
        });
    }

    @Override
    public void close() {
        lanes.close();
        deadlines.close();
        settler.shutdown();
    }
}
