package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a claimed batch (in due order) and settles it in Redis once every publish completed: the
 * delivered ones acknowledged per slot, each failed one retried or dead-lettered. Settling runs on a thread
 * of its own, so the dispatch loop only claims and hands over, and a slow target never holds up the loop.
 */
final class PublishAndSettle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PublishAndSettle.class);

    private final DelayStore store;
    private final TargetPublisher publisher;
    private final RetryOrDeadLetter failures;
    private final long publishTimeoutMs;
    private final BridgeMetrics metrics;
    private final Runnable onSettled;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "dispatch-settler");
        thread.setDaemon(true);
        return thread;
    });

    /** @param onSettled called after each batch is settled (or failed to settle): room in flight has been freed */
    PublishAndSettle(DelayStore store, TargetPublisher publisher, RetryOrDeadLetter failures, long publishTimeoutMs, BridgeMetrics metrics,
                     Runnable onSettled) {
        this.store = store;
        this.publisher = publisher;
        this.failures = failures;
        this.publishTimeoutMs = publishTimeoutMs;
        this.metrics = metrics;
        this.onSettled = onSettled;
    }

    /** Messages published but not yet settled in Redis. */
    int inFlight() {
        return inFlight.get();
    }

    /** Starts publishing the batch and returns at once; the batch counts as in flight until it is settled. */
    void start(List<ClaimedMessage> claimed) {
        inFlight.addAndGet(claimed.size());
        List<CompletableFuture<Void>> publishes = new ArrayList<>(claimed.size());
        for (ClaimedMessage message : claimed) {
            publishes.add(publish(message).orTimeout(publishTimeoutMs, TimeUnit.MILLISECONDS));
        }
        CompletableFuture.allOf(publishes.stream().map(p -> p.exceptionally(failure -> null)).toArray(CompletableFuture[]::new))
                .thenComposeAsync(allDone -> settle(claimed, publishes), settler)
                .whenComplete((settled, failure) -> {
                    if (failure != null) {
                        // The messages stay in flight; their leases expire and they are delivered again (at-least-once).
                        LOG.warn("could not settle {} delivered messages in Redis; they are redelivered after their lease expires: {}",
                                claimed.size(), Failures.rootMessage(failure));
                    }
                    inFlight.addAndGet(-claimed.size());
                    onSettled.run();
                });
    }

    private CompletableFuture<Void> publish(ClaimedMessage message) {
        if (message.encodedEnvelope() == null) {
            return CompletableFuture.failedFuture(new PayloadMissingException(message));
        }
        try {
            if (!message.idResolved()) {
                throw new IllegalArgumentException("message id still packed in Redis's stored form: Redis could not turn the stem code of"
                        + " member " + HexFormat.of().formatHex(message.member()) + " back into a name, because the slot's names hash lacks it"
                        + " (was that key deleted or replaced?)");
            }
            Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
            return publisher.publish(envelope, Target.parse(envelope.target()), message.dueAt());
        } catch (RuntimeException unreadable) {
            return CompletableFuture.failedFuture(new UnreadableRecordException(unreadable));
        }
    }

    private CompletableFuture<Void> settle(List<ClaimedMessage> claimed, List<CompletableFuture<Void>> publishes) {
        Map<Integer, List<ClaimedMessage>> deliveredBySlot = new TreeMap<>();
        List<CompletableFuture<?>> settlements = new ArrayList<>();
        for (int i = 0; i < claimed.size(); i++) {
            ClaimedMessage message = claimed.get(i);
            CompletableFuture<Void> publish = publishes.get(i);
            if (publish.isCompletedExceptionally()) {
                settlements.add(failures.publishFailed(message, publish.handle((ok, failure) -> failure).join()));
            } else {
                deliveredBySlot.computeIfAbsent(message.slot(), s -> new ArrayList<>()).add(message);
            }
        }
        deliveredBySlot.forEach((slot, delivered) -> settlements.add(store.acknowledge(slot, delivered)));
        long now = System.currentTimeMillis();
        deliveredBySlot.values().forEach(delivered -> {
            metrics.delivered(delivered.size());
            delivered.forEach(message -> metrics.lateness(now - message.dueAt()));
        });
        return CompletableFuture.allOf(settlements.toArray(CompletableFuture[]::new));
    }

    @Override
    public void close() {
        settler.shutdown();
    }
}
