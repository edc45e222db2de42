package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.Publisher;
import io.github.redisdelaybridge.store.ClaimedBatch;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves due messages from Redis to their targets: claim (under a lease) -> publish -> broker
 * acknowledgement -> acknowledge in Redis. A failed publish is rescheduled with backoff, or
 * dead-lettered once its retries are exhausted; nothing is deleted from Redis before a broker has it.
 *
 * <p>The dispatch timer route calls {@link #dispatchDueMessages()} back to back. One call is a cycle of
 * at most {@code idlePollMs}: it claims and publishes everything due, then sleeps until the next due
 * time that the claim script reported (or until the inbound side stores something earlier), so
 * lateness does not depend on a polling period.
 *
 * <p>Publishing is asynchronous: the cycle thread only claims and hands messages to the publishers;
 * each claimed batch is settled in Redis on a separate thread once all its publishes completed. So a
 * slow or failing target never holds up messages for other targets, and up to {@code maxInFlight}
 * messages are on their way at once.
 */
public final class Dispatcher implements DispatchWakeup, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final DelayStore store;
    private final Publisher publisher;
    private final DeadLetters deadLetters;
    private final RetryPolicy retryPolicy;
    private final DispatchSettings settings;
    private final BooleanSupplier stopping;
    private final BridgeMetrics metrics;

    private final ExecutorService settler = Executors.newSingleThreadExecutor(r -> {
        Thread thread = new Thread(r, "dispatch-settler");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private volatile long plannedWakeAt = Long.MAX_VALUE;
    private boolean signalled;
    private int nextSlot;
    private long redisUnavailableSince;

    public Dispatcher(DelayStore store, Publisher publisher, DeadLetters deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, BooleanSupplier stopping, BridgeMetrics metrics) {
        this.store = store;
        this.publisher = publisher;
        this.deadLetters = deadLetters;
        this.retryPolicy = retryPolicy;
        this.settings = settings;
        this.stopping = stopping;
        this.metrics = metrics;
        metrics.gauge("bridge.dispatch.in.flight", "messages published and not yet settled in Redis", inFlight::get);
    }

    /** Camel bean method: one dispatch cycle. When the bridge is stopping, waits for in-flight messages to settle. */
    public void dispatchDueMessages() throws InterruptedException {
        long cycleEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.idlePollMs());
        try {
            while (!stopping.getAsBoolean()) {
                long remainingMs = TimeUnit.NANOSECONDS.toMillis(cycleEnd - System.nanoTime());
                int room = settings.maxInFlight() - inFlight.get();
                if (room <= 0) {
                    if (remainingMs <= 0) {
                        return;
                    }
                    awaitSignal(Math.min(remainingMs, 10), Long.MAX_VALUE);
                    continue;
                }
                ClaimRound round = claim(Math.min(settings.batchSize(), room));
                if (round == null) {
                    return;
                }
                if (!round.messages().isEmpty()) {
                    publishAndSettle(round.messages());
                    continue;
                }
                if (remainingMs <= 0) {
                    return;
                }
                long untilNextDue = round.nextDue() < 0 ? Long.MAX_VALUE : Math.max(0, round.nextDue() - round.redisNow());
                long sleepMs = Math.min(remainingMs, untilNextDue);
                awaitSignal(sleepMs, round.redisNow() + sleepMs);
            }
        } finally {
            if (stopping.getAsBoolean()) {
                awaitSettled(settings.publishTimeoutMs() + 2 * settings.redisTimeoutMs());
            }
        }
    }

    @Override
    public void wakeIfEarlierThan(long dueAtEpochMs) {
        if (dueAtEpochMs < plannedWakeAt) {
            signal();
        }
    }

    /** Messages published but not yet settled in Redis. */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public void close() {
        settler.shutdown();
    }

    private void signal() {
        lock.lock();
        try {
            signalled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void awaitSignal(long millis, long wakeAtRedisTime) throws InterruptedException {
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

    private void awaitSettled(long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (inFlight.get() > 0 && System.currentTimeMillis() < deadline) {
            awaitSignal(10, Long.MAX_VALUE);
        }
        if (inFlight.get() > 0) {
            LOG.warn("stopping with {} messages unsettled; their leases expire and they are delivered again", inFlight.get());
        }
    }

    private record ClaimRound(long redisNow, long nextDue, List<ClaimedMessage> messages) {
    }

    /** Claims from all slots in one pipelined round trip, starting at a rotating slot; null if Redis failed. */
    private ClaimRound claim(int limit) {
        try {
            ClaimRound round = claimFromEverySlot(limit);
            if (redisUnavailableSince != 0) {
                LOG.info("Redis answers again after {} ms; dispatching resumes", System.currentTimeMillis() - redisUnavailableSince);
                redisUnavailableSince = 0;
            }
            return round;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            if (redisUnavailableSince == 0) {
                redisUnavailableSince = System.currentTimeMillis();
                LOG.warn("cannot claim due messages, dispatching paused until Redis answers: {}", rootMessage(e));
            }
            return null;
        }
    }

    private ClaimRound claimFromEverySlot(int limit) throws Exception {
        int slots = store.keys().slotCount();
        int perSlot = Math.max(1, limit / slots);
        List<CompletableFuture<ClaimedBatch>> claims = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            claims.add(store.claim((nextSlot + i) % slots, perSlot, settings.leaseMs()));
        }
        nextSlot = (nextSlot + 1) % slots;
        long redisNow = 0;
        long nextDue = -1;
        List<ClaimedMessage> messages = new ArrayList<>();
        for (CompletableFuture<ClaimedBatch> claim : claims) {
            ClaimedBatch batch = claim.get(settings.redisTimeoutMs(), TimeUnit.MILLISECONDS);
            redisNow = Math.max(redisNow, batch.redisNow());
            if (batch.nextDue() >= 0 && (nextDue < 0 || batch.nextDue() < nextDue)) {
                nextDue = batch.nextDue();
            }
            messages.addAll(batch.messages());
        }
        messages.sort(Comparator.comparingLong(ClaimedMessage::dueAt).thenComparing(ClaimedMessage::messageId));
        return new ClaimRound(redisNow, nextDue, messages);
    }

    /** Hands a claimed batch to the publishers (in due order) and settles it once every publish completed. */
    private void publishAndSettle(List<ClaimedMessage> claimed) {
        inFlight.addAndGet(claimed.size());
        List<CompletableFuture<Void>> publishes = new ArrayList<>(claimed.size());
        for (ClaimedMessage message : claimed) {
            publishes.add(publish(message).orTimeout(settings.publishTimeoutMs(), TimeUnit.MILLISECONDS));
        }
        CompletableFuture.allOf(publishes.stream().map(p -> p.exceptionally(failure -> null)).toArray(CompletableFuture[]::new))
                .thenComposeAsync(allDone -> settle(claimed, publishes), settler)
                .whenComplete((settled, failure) -> {
                    if (failure != null) {
                        // The messages stay in flight; their leases expire and they are delivered again (at-least-once).
                        LOG.warn("could not settle {} delivered messages in Redis; they are redelivered after their lease expires: {}",
                                claimed.size(), rootMessage(failure));
                    }
                    inFlight.addAndGet(-claimed.size());
                    signal();
                });
    }

    private CompletableFuture<Void> publish(ClaimedMessage message) {
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
                settlements.add(publishFailed(message, publish.handle((ok, failure) -> failure).join()));
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

    /** Reschedules with backoff, or dead-letters when retries are exhausted or the record is unreadable. */
    private CompletableFuture<?> publishFailed(ClaimedMessage message, Throwable failure) {
        int failedAttempts = message.attempts() + 1;
        metrics.publishFailed();
        boolean unreadable = unwrap(failure) instanceof UnreadableRecordException;
        if (!unreadable && !retryPolicy.exhausted(failedAttempts)) {
            long backoff = retryPolicy.backoffMs(failedAttempts);
            LOG.warn("publishing {} failed (attempt {} of {}), retrying in {} ms: {}", message.messageId(), failedAttempts,
                    retryPolicy.maxAttempts(), backoff, rootMessage(failure));
            return store.reschedule(message, backoff, true);
        }
        DeadLetter deadLetter = unreadable ? unreadableDeadLetter(message, failure) : exhaustedDeadLetter(message, failedAttempts, failure);
        LOG.error("dead-lettering {}: {} ({})", message.messageId(), deadLetter.reason().code(), deadLetter.detail());
        metrics.deadLettered(deadLetter.reason());
        return deadLetters.recordUndeliverable(message, deadLetter)
                .exceptionallyCompose(deadLetterFailed -> {
                    LOG.warn("could not dead-letter {}, retrying later: {}", message.messageId(), rootMessage(deadLetterFailed));
                    return store.reschedule(message, retryPolicy.backoffMs(failedAttempts), false);
                });
    }

    private static DeadLetter exhaustedDeadLetter(ClaimedMessage message, int attempts, Throwable failure) {
        Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
        List<MessageHeader> headers = new ArrayList<>(envelope.headers());
        headers.add(MessageHeader.text(HeaderNames.TARGET, envelope.target()));
        return new DeadLetter(envelope.messageId(), DeadLetterReason.PUBLISH_FAILED,
                "publishing to " + envelope.target() + " failed " + attempts + " times; last error: " + rootMessage(failure),
                envelope.origin(), envelope.target(), attempts, envelope.key(), headers, envelope.properties(), envelope.body());
    }

    private static DeadLetter unreadableDeadLetter(ClaimedMessage message, Throwable failure) {
        return new DeadLetter(message.messageId(), DeadLetterReason.CORRUPT_ENVELOPE,
                "stored record cannot be read: " + rootMessage(failure), "redis", "", message.attempts(), null, List.of(), Map.of(),
                message.encodedEnvelope());
    }

    /** A claimed record that cannot be decoded or names an unparseable target: retrying cannot help. */
    private static final class UnreadableRecordException extends RuntimeException {
        UnreadableRecordException(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof java.util.concurrent.CompletionException || t instanceof java.util.concurrent.ExecutionException)
                && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
