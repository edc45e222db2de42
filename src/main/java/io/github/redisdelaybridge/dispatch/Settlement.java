package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.client.BrokerBlockedException;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settling half: once a message's outcome is known, settles it in Redis on a thread of its own. The delivered ones are
 * acknowledged, grouped per slot (whatever has been answered by then); each failed one is retried or dead-lettered
 * ({@link RetryOrDeadLetter}); each one that was not sent is given back for later ({@link GiveBack}). Messages settle one by
 * one, not per claimed batch, so a slow target holds up only its own messages. Settling frees the message's room in
 * flight and in its target's load; a delivery tells parking that its target answers ({@link ParkedTargets#delivered}).
 */
final class Settlement implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Settlement.class);

    private final DispatchStore store;
    private final RetryOrDeadLetter failures;
    private final GiveBack giveBack;
    private final TargetLoad load;
    private final ParkedTargets parked;
    private final long publishTimeoutMs;
    private final BridgeMetrics metrics;
    private final Runnable onSettled;
    private final Runnable onReturnedToDueSet;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ConcurrentLinkedQueue<OutgoingMessage> answered = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "dispatch-settler");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * @param onSettled          called after messages are settled (or failed to settle): room in flight has been freed
     * @param onReturnedToDueSet called after a message went back to the due set (given back, or to be retried), maybe due
     *                           sooner than the dispatch loop plans to look again
     */
    Settlement(DispatchStore store, RetryOrDeadLetter failures, GiveBack giveBack, TargetLoad load, ParkedTargets parked, long publishTimeoutMs,
               BridgeMetrics metrics, Runnable onSettled, Runnable onReturnedToDueSet) {
        this.parked = parked;
        this.store = store;
        this.failures = failures;
        this.giveBack = giveBack;
        this.load = load;
        this.publishTimeoutMs = publishTimeoutMs;
        this.metrics = metrics;
        this.onSettled = onSettled;
        this.onReturnedToDueSet = onReturnedToDueSet;
    }

    /** Messages handed over and not yet settled in Redis. */
    int inFlight() {
        return inFlight.get();
    }

    /** The message counts as in flight until it is settled, which starts once its outcome completes. */
    void settleWhenAnswered(OutgoingMessage outgoing) {
        inFlight.incrementAndGet();
        outgoing.outcome.whenComplete((ok, failure) -> answered(outgoing, failure));
    }

    /** Whatever thread completed the outcome: queue it for settling. */
    private void answered(OutgoingMessage outgoing, Throwable failure) {
        Throwable cause = failure == null ? null : Failures.unwrap(failure);
        outgoing.failure = cause;
        if (outgoing.admitted && notSent(outgoing) == null && !(cause instanceof TimeoutException)) {
            load.answered(outgoing.target, System.currentTimeMillis());
        }
        answered.add(outgoing);
        if (drainQueued.compareAndSet(false, true)) {
            try {
                settler.execute(this::settleAnswered);
            } catch (RejectedExecutionException stopped) {
                drainQueued.set(false);
            }
        }
    }

    /** The reason a failed message was never sent, or null if it was sent (or succeeded). */
    private NotSentException notSent(OutgoingMessage outgoing) {
        Throwable failure = outgoing.failure;
        if (failure instanceof NotSentException notSent) {
            return notSent;
        }
        if (failure instanceof BrokerBlockedException blocked) {
            return new NotSentException(blocked.getMessage(), blocked.blockedSinceEpochMs());
        }
        if (failure instanceof TimeoutException && !outgoing.sent) {
            return new NotSentException("waited " + publishTimeoutMs + " ms for its turn on the " + outgoing.target.uri()
                    + " lane, behind a publish that does not return", System.currentTimeMillis() - publishTimeoutMs);
        }
        return null;
    }

    /** On the settler thread: settles everything answered so far. */
    private void settleAnswered() {
        drainQueued.set(false);
        Map<Integer, List<OutgoingMessage>> deliveredBySlot = new TreeMap<>();
        Map<Broker, int[]> deliveredByBroker = new EnumMap<>(Broker.class);
        long now = System.currentTimeMillis();
        for (OutgoingMessage outgoing; (outgoing = answered.poll()) != null; ) {
            if (outgoing.failure == null) {
                deliveredBySlot.computeIfAbsent(outgoing.message.slot(), s -> new ArrayList<>()).add(outgoing);
                Broker broker = outgoing.target.broker();
                metrics.lateness(broker, now - outgoing.message.originalDueAt());
                if (outgoing.limit != null) {
                    metrics.targetDelivered(outgoing.limit.name(), 1);
                }
                parked.delivered(outgoing.envelope.target());
                deliveredByBroker.computeIfAbsent(broker, b -> new int[1])[0]++;
                continue;
            }
            OutgoingMessage failed = outgoing;
            NotSentException notSent = notSent(failed);
            finishWhenSettled(List.of(failed), true, () -> notSent != null ? giveBack.giveBack(failed, notSent, now)
                    : failures.publishFailed(failed.message, failed.envelope == null ? null : failed.envelope.target(), failed.failure));
        }
        deliveredByBroker.forEach((broker, count) -> metrics.delivered(broker, count[0]));
        deliveredBySlot.forEach((slot, delivered) -> finishWhenSettled(delivered, false,
                () -> store.acknowledge(slot, delivered.stream().map(o -> o.message).toList())));
    }

    /** {@code failed}: the settlement may put the messages back in the due set (a retry, a give-back) rather than remove them. */
    private void finishWhenSettled(List<OutgoingMessage> settling, boolean failed, Supplier<CompletableFuture<?>> settlement) {
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
                        settling.size(), Failures.rootMessage(failure));
            }
            Map<Target, Integer> admitted = new HashMap<>(4);
            for (OutgoingMessage outgoing : settling) {
                if (outgoing.admitted) {
                    admitted.merge(outgoing.target, 1, Integer::sum);
                }
            }
            admitted.forEach(load::release);
            inFlight.addAndGet(-settling.size());
            onSettled.run();
            if (failed) {
                onReturnedToDueSet.run();
            }
        });
    }

    @Override
    public void close() {
        settler.shutdown();
    }
}
