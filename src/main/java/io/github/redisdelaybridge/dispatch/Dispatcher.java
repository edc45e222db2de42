package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.deadletter.DeadLetter;
import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.DeadLetterReason;
import io.github.redisdelaybridge.inbound.DelayHeaders;
import io.github.redisdelaybridge.outbound.Publisher;
import io.github.redisdelaybridge.outbound.Target;
import io.github.redisdelaybridge.store.ClaimedBatch;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import io.github.redisdelaybridge.store.Envelope;
import io.github.redisdelaybridge.store.EnvelopeCodec;
import io.github.redisdelaybridge.store.MessageHeader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves due messages from Redis to their targets: claim (under a lease) -> publish -> wait for the
 * broker's acknowledgement -> acknowledge in Redis. A failed publish is rescheduled with backoff, or
 * dead-lettered once its retries are exhausted; nothing is deleted from Redis before a broker has it.
 *
 * <p>The dispatch timer route calls {@link #dispatchDueMessages()} back to back. One call is a cycle of
 * at most {@code idlePollMs}: it drains everything due, then sleeps until the next due time that the
 * claim script reported (or until the inbound side stores something earlier), so lateness does not
 * depend on a polling period.
 */
public final class Dispatcher implements DispatchWakeup {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final DelayStore store;
    private final Publisher publisher;
    private final DeadLetterChannel deadLetters;
    private final RetryPolicy retryPolicy;
    private final DispatchSettings settings;
    private final String instanceId;
    private final BooleanSupplier stopping;

    private final AtomicLong claimSequence = new AtomicLong();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wakeUp = lock.newCondition();
    private volatile long plannedWakeAt = Long.MAX_VALUE;
    private volatile boolean woken;
    private int nextSlot;
    private long redisUnavailableSince;

    public Dispatcher(DelayStore store, Publisher publisher, DeadLetterChannel deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, String instanceId, BooleanSupplier stopping) {
        this.store = store;
        this.publisher = publisher;
        this.deadLetters = deadLetters;
        this.retryPolicy = retryPolicy;
        this.settings = settings;
        this.instanceId = instanceId;
        this.stopping = stopping;
    }

    /** Camel bean method: one dispatch cycle. */
    public void dispatchDueMessages() throws InterruptedException {
        long cycleEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.idlePollMs());
        while (!stopping.getAsBoolean()) {
            ClaimRound round;
            try {
                round = claimFromEverySlot();
                if (redisUnavailableSince != 0) {
                    LOG.info("Redis answers again; dispatching resumes");
                    redisUnavailableSince = 0;
                }
            } catch (Exception e) {
                if (redisUnavailableSince == 0) {
                    redisUnavailableSince = System.currentTimeMillis();
                    LOG.warn("cannot claim due messages, dispatching paused until Redis answers: {}", rootMessage(e));
                }
                return;
            }
            if (!round.messages().isEmpty()) {
                deliver(round.messages());
                continue;
            }
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(cycleEnd - System.nanoTime());
            if (remainingMs <= 0) {
                return;
            }
            long untilNextDue = round.nextDue() < 0 ? Long.MAX_VALUE : Math.max(0, round.nextDue() - round.redisNow());
            sleep(Math.min(remainingMs, untilNextDue), round.redisNow());
        }
    }

    @Override
    public void wakeIfEarlierThan(long dueAtEpochMs) {
        if (dueAtEpochMs < plannedWakeAt) {
            lock.lock();
            try {
                woken = true;
                wakeUp.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    private void sleep(long millis, long redisNow) throws InterruptedException {
        if (millis <= 0) {
            return;
        }
        lock.lock();
        try {
            woken = false;
            plannedWakeAt = redisNow + millis;
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            while (!woken && nanos > 0) {
                nanos = wakeUp.awaitNanos(nanos);
            }
        } finally {
            plannedWakeAt = Long.MAX_VALUE;
            lock.unlock();
        }
    }

    private record ClaimRound(long redisNow, long nextDue, List<ClaimedMessage> messages) {
    }

    /** Claims from all slots in one pipelined round trip, starting at a rotating slot for fairness. */
    private ClaimRound claimFromEverySlot() throws Exception {
        int slots = store.keys().slotCount();
        String token = instanceId + ":" + claimSequence.incrementAndGet();
        int perSlot = Math.max(1, settings.batchSize() / slots);
        List<CompletableFuture<ClaimedBatch>> claims = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            claims.add(store.claim((nextSlot + i) % slots, perSlot, settings.leaseMs(), token));
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

    /** Publishes a claimed batch, waits for every broker acknowledgement, then settles each message in Redis. */
    private void deliver(List<ClaimedMessage> claimed) throws InterruptedException {
        List<CompletableFuture<Void>> publishes = new ArrayList<>(claimed.size());
        for (ClaimedMessage message : claimed) {
            publishes.add(publish(message));
        }
        Map<Integer, List<ClaimedMessage>> deliveredBySlot = new TreeMap<>();
        List<CompletableFuture<?>> settlements = new ArrayList<>();
        for (int i = 0; i < claimed.size(); i++) {
            ClaimedMessage message = claimed.get(i);
            try {
                publishes.get(i).get(settings.publishTimeoutMs(), TimeUnit.MILLISECONDS);
                deliveredBySlot.computeIfAbsent(message.slot(), s -> new ArrayList<>()).add(message);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                settlements.add(publishFailed(message, e));
            }
        }
        deliveredBySlot.forEach((slot, delivered) -> settlements.add(store.acknowledge(slot, delivered)));
        for (CompletableFuture<?> settlement : settlements) {
            try {
                settlement.get(settings.redisTimeoutMs(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                // The message stays in flight; its lease expires and it is delivered again (at-least-once).
                LOG.warn("could not settle a delivered batch in Redis; it will be redelivered after its lease expires: {}",
                        rootMessage(e));
            }
        }
    }

    private CompletableFuture<Void> publish(ClaimedMessage message) {
        Envelope envelope;
        try {
            envelope = EnvelopeCodec.decode(message.encodedEnvelope());
        } catch (IllegalArgumentException corrupt) {
            return CompletableFuture.failedFuture(new CorruptEnvelopeException(corrupt.getMessage()));
        }
        return publisher.publish(envelope, Target.parse(envelope.target()), message.dueAt());
    }

    /** Reschedules with backoff, or dead-letters when retries are exhausted or the record is unreadable. */
    private CompletableFuture<?> publishFailed(ClaimedMessage message, Exception failure) {
        int failedAttempts = message.attempts() + 1;
        boolean corrupt = failure.getCause() instanceof CorruptEnvelopeException || failure instanceof CorruptEnvelopeException;
        if (!corrupt && !retryPolicy.exhausted(failedAttempts)) {
            long backoff = retryPolicy.backoffMs(failedAttempts);
            LOG.warn("publishing {} failed (attempt {} of {}), retrying in {} ms: {}", message.messageId(), failedAttempts,
                    retryPolicy.maxAttempts(), backoff, rootMessage(failure));
            return store.reschedule(message, backoff, true);
        }
        DeadLetter deadLetter = corrupt ? corruptDeadLetter(message, failure) : exhaustedDeadLetter(message, failedAttempts, failure);
        LOG.error("dead-lettering {}: {} ({})", message.messageId(), deadLetter.reason().code(), deadLetter.detail());
        return deadLetters.send(deadLetter)
                .thenCompose(sent -> store.acknowledge(message.slot(), List.of(message)))
                .exceptionallyCompose(deadLetterFailed -> {
                    LOG.warn("could not dead-letter {}, retrying later: {}", message.messageId(), rootMessage(deadLetterFailed));
                    return store.reschedule(message, retryPolicy.backoffMs(failedAttempts), false);
                });
    }

    private static DeadLetter exhaustedDeadLetter(ClaimedMessage message, int attempts, Exception failure) {
        Envelope envelope = EnvelopeCodec.decode(message.encodedEnvelope());
        List<MessageHeader> headers = new ArrayList<>(envelope.headers());
        headers.add(MessageHeader.text(DelayHeaders.TARGET, envelope.target()));
        return new DeadLetter(envelope.messageId(), DeadLetterReason.PUBLISH_FAILED,
                "publishing to " + envelope.target() + " failed " + attempts + " times; last error: " + rootMessage(failure),
                envelope.origin(), attempts, envelope.key(), headers, envelope.properties(), envelope.body());
    }

    private static DeadLetter corruptDeadLetter(ClaimedMessage message, Exception failure) {
        return new DeadLetter(message.messageId(), DeadLetterReason.CORRUPT_ENVELOPE,
                "stored record cannot be read: " + rootMessage(failure), "redis", message.attempts(), null, List.of(), Map.of(),
                message.encodedEnvelope());
    }

    private static final class CorruptEnvelopeException extends RuntimeException {
        CorruptEnvelopeException(String message) {
            super(message);
        }
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
