package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.dispatch.DispatchWakeup;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.MessageLogContext;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores accepted messages in Redis, applies control messages (cancel, reschedule, replace), and sends rejected
 * ones to the dead-letter channel, and returns only when all of it is confirmed. Until then nothing is
 * acknowledged upstream. A control message is never delivered anywhere.
 *
 * <p>Within a batch, messages are stored first and controls applied after, in arrival order: a message
 * and its cancel in the same batch end cancelled whichever came first, as they would in two batches
 * (a cancel that arrives first is recorded, and the message dropped on arrival).
 *
 * <p>When Redis or the dead-letter broker is down it retries the same batch (so the consumer stops
 * taking new work and the source keeps everything). With {@code maxAttempts} 0 (Kafka) it retries until it
 * succeeds or the bridge stops; with a bound (RabbitMQ) it gives up after that many attempts. Either way
 * it then throws, so the batch is not acknowledged: Kafka consumes it again, RabbitMQ gets a nack with
 * requeue and delivers it again. Storing the same batch twice is harmless: message ids already pending or
 * delivered are not stored again.
 *
 * <p>Before the batch is acknowledged, Redis confirms its writes as durable as {@code bridge.redis.wait-*} promise
 * ({@link DurabilityBarrier}: replicas and/or the master's fsync). Not confirmed in time, the confirmation is retried
 * like any other step; should the connection have changed under the batch, the whole batch is written again.
 */
public final class MessageScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(MessageScheduler.class);
    private static final long STANDING_LOOKUP_MS = 5_000;

    private final IngestStore store;
    private final InspectionStore inspection;
    private final DeadLetters deadLetters;
    private final DispatchWakeup wakeup;
    private final BridgeMetrics metrics;
    private final ControlApplier controlApplier;
    private final BatchRetry retry;
    private final DurabilityBarrier barrier;
    private final Broker kind;

    /**
     * @param inspection  where the pending message of a duplicate id stands, for its dead letter's detail
     * @param barrier     what Redis must confirm before the batch is acknowledged ({@code bridge.redis.wait-*})
     * @param maxAttempts how often to try storing a batch before giving up; 0 for as long as the bridge runs
     * @param kind        the inbound broker: the {@code kind} label of the ingest latency
     */
    public MessageScheduler(IngestStore store, InspectionStore inspection, DurabilityBarrier barrier, DeadLetters deadLetters,
                            DispatchWakeup wakeup, BooleanSupplier stopping, BridgeMetrics metrics, int maxAttempts, Broker kind) {
        this.kind = kind;
        this.store = store;
        this.inspection = inspection;
        this.barrier = barrier;
        this.deadLetters = deadLetters;
        this.wakeup = wakeup;
        this.metrics = metrics;
        this.controlApplier = new ControlApplier(store, metrics);
        this.retry = new BatchRetry(stopping, maxAttempts);
    }

    /** Camel bean method: the batch is stored, controlled and dead-lettered when this returns, as durably as promised. */
    public IngestReport schedule(ValidatedBatch batch) throws InterruptedException {
        long start = System.nanoTime();
        BatchParts parts = BatchParts.of(batch);
        Set<Integer> slots = parts.slots(store.keys());
        boolean[] scheduledEarlier = new boolean[parts.accepted().size()];
        for (int round = 1; ; round++) {
            DurabilityBarrier.Fence fence = retry.untilDone("reach the Redis masters of " + slots.size() + " slot(s)", () -> barrier.open(slots));
            Tally tally = new Tally(new ArrayList<>(parts.rejected()));
            storeAccepted(parts.accepted(), tally, scheduledEarlier);
            applyControls(parts.controls(), tally);
            if (tally.earliestDue != Long.MAX_VALUE) {
                wakeup.wakeIfEarlierThan(tally.earliestDue);
            }
            recordRejected(tally.rejected);
            if (tally.duplicatesOfDelivered > 0) {
                // a redelivery (a batch consumed again) or an id reused within the dedupe window: the payload of a delivered
                // message is not kept, so the two cannot be told apart; said once per batch, counted as duplicates
                LOG.info("{} of {} messages not stored: their ids were delivered within the dedupe window ({} ms), e.g. {}",
                        tally.duplicatesOfDelivered, batch.messages().size(), store.limits().dedupeWindowMs(), tally.deliveredIds);
            }
            if (retry.untilDone("have Redis confirm the batch's writes (" + barrier.describePlan() + ")", fence::confirm)) {
                metrics.scheduled(tally.scheduled);
                metrics.duplicates(tally.duplicates);
                metrics.duplicatesOfDelivered(tally.duplicatesOfDelivered);
                metrics.ingestTook(kind, System.nanoTime() - start);
                return new IngestReport(tally.scheduled, tally.duplicates + tally.duplicatesOfDelivered, tally.cancelled, parts.controls().size(), tally.rejected.size(),
                        batch.acknowledgement());
            }
            // The wait ran on another connection than the writes (Lettuce reconnected, perhaps to a new master after a
            // failover): it proves nothing about them, so the batch is written again; its writes are idempotent.
            LOG.warn("the Redis connection was re-established while a batch of {} messages was being stored (round {}); storing it again",
                    batch.messages().size(), round);
            if (retry.gaveUpAfter(round)) {
                throw new IllegalStateException("batch not acknowledged upstream: the Redis connection changed under it " + round + " times");
            }
        }
    }

    /** A batch sorted by what validation made of each message; rejected ones already as dead letters. */
    private record BatchParts(List<ValidatedMessage.Accepted> accepted, List<ValidatedMessage.Control> controls, List<DeadLetter> rejected) {

        static BatchParts of(ValidatedBatch batch) {
            BatchParts parts = new BatchParts(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (ValidatedMessage message : batch.messages()) {
                if (message instanceof ValidatedMessage.Accepted a) {
                    parts.accepted.add(a);
                } else if (message instanceof ValidatedMessage.Control c) {
                    parts.controls.add(c);
                } else {
                    ValidatedMessage.Rejected r = (ValidatedMessage.Rejected) message;
                    parts.rejected.add(deadLetterOf(r.message(), r.rejection().reason(), r.rejection().detail()));
                }
            }
            return parts;
        }

        /** Every slot the batch may write to: of the messages, the ids controls name (every slot for a group), and the dead letters' ids. */
        Set<Integer> slots(Keys keys) {
            Set<Integer> slots = new TreeSet<>();
            accepted.forEach(a -> {
                slots.add(keys.slotOf(a.request().messageId()));
                slots.add(keys.slotOf(a.message().idForRecords()));
                slots.add(keys.slotOf(a.message().defaultMessageId())); // a duplicate-id dead letter is filed there
            });
            controls.forEach(c -> {
                if (c.request() instanceof ControlRequest.Cancel cancel) {
                    slots.add(keys.slotOf(cancel.messageId()));
                } else if (c.request() instanceof ControlRequest.Reschedule reschedule) {
                    slots.add(keys.slotOf(reschedule.messageId()));
                } else {
                    for (int slot = 0; slot < keys.slotCount(); slot++) { // a group spans every slot
                        slots.add(slot);
                    }
                }
                slots.add(keys.slotOf(c.message().idForRecords()));
            });
            rejected.forEach(r -> slots.add(keys.slotOf(r.messageId())));
            return slots;
        }
    }

    /** What the batch came to so far. */
    private static final class Tally {
        final List<DeadLetter> rejected;
        int scheduled;
        int duplicates;
        int duplicatesOfDelivered;
        final List<String> deliveredIds = new ArrayList<>(); // the first few, for the log
        int cancelled;
        long earliestDue = Long.MAX_VALUE;

        Tally(List<DeadLetter> rejected) {
            this.rejected = rejected;
        }
    }

    /**
     * @param scheduledEarlier per message, whether an earlier round of this batch stored it; such a message now reads as
     *                         a duplicate of itself and still counts as scheduled
     */
    private void storeAccepted(List<ValidatedMessage.Accepted> accepted, Tally tally, boolean[] scheduledEarlier) throws InterruptedException {
        if (accepted.isEmpty()) {
            return;
        }
        List<ScheduleRequest> requests = accepted.stream().map(ValidatedMessage.Accepted::request).toList();
        List<ScheduleResult> results = retry.untilDone("store " + requests.size() + " messages in Redis", () -> store.schedule(requests));
        for (int i = 0; i < results.size(); i++) {
            ScheduleResult result = results.get(i);
            InboundMessage message = accepted.get(i).message();
            if (result.outcome() == ScheduleResult.Outcome.DUPLICATE_PENDING && scheduledEarlier[i]) {
                tally.scheduled++;
                continue;
            }
            switch (result.outcome()) {
                case SCHEDULED -> {
                    tally.scheduled++;
                    scheduledEarlier[i] = true;
                    tally.earliestDue = Math.min(tally.earliestDue, result.dueAt());
                }
                case DUPLICATE_PENDING -> {
                    tally.duplicates++;
                    LOG.debug("not storing {} again: a message with this id and payload is pending or in flight", requests.get(i).messageId());
                }
                case DUPLICATE_DELIVERED -> {
                    if (tally.duplicatesOfDelivered++ < 3) {
                        tally.deliveredIds.add(requests.get(i).messageId());
                    }
                }
                case DUPLICATE_ID -> {
                    metrics.duplicateIdConflict();
                    tally.rejected.add(duplicateId(message, requests.get(i)));
                }
                case DELAY_TOO_LONG -> tally.rejected.add(deadLetterOf(message, DeadLetterReason.DELAY_TOO_LONG,
                        "x-deliver-at lies beyond the maximum delay, measured on the Redis clock"));
                case CANCELLED -> {
                    tally.cancelled++;
                    metrics.cancelledArrival();
                    LOG.info("dropping {} from {}: it was cancelled before it arrived", requests.get(i).messageId(), message.origin());
                }
            }
        }
    }

    private void applyControls(List<ValidatedMessage.Control> controls, Tally tally) throws InterruptedException {
        if (controls.isEmpty()) {
            return;
        }
        List<ControlApplier.Applied> applied = retry.untilDone("apply " + controls.size() + " control messages in Redis",
                () -> controlApplier.apply(controls));
        for (ControlApplier.Applied control : applied) {
            Rejection refused = controlApplier.report(control);
            if (refused != null) {
                tally.rejected.add(deadLetterOf(control.control().message(), refused.reason(), refused.detail()));
            } else if (control.newDueAt() >= 0) {
                tally.earliestDue = Math.min(tally.earliestDue, control.newDueAt());
            }
        }
    }

    private void recordRejected(List<DeadLetter> rejected) throws InterruptedException {
        if (rejected.isEmpty()) {
            return;
        }
        for (DeadLetter deadLetter : rejected) {
            try (MessageLogContext context = MessageLogContext.of(deadLetter.messageId(), deadLetter.target())) {
                LOG.atWarn().addKeyValue("event", "dead-letter").addKeyValue("reason", deadLetter.reason().code())
                        .addKeyValue("origin", deadLetter.origin()).addKeyValue("detail", deadLetter.detail())
                        .log("dead-lettering {} from {}: {} ({})", deadLetter.messageId(), deadLetter.origin(),
                                deadLetter.reason().code(), deadLetter.detail());
            }
        }
        retry.untilDone("record " + rejected.size() + " dead letters", () -> deadLetters.recordRejected(rejected));
        rejected.forEach(deadLetter -> metrics.deadLettered(deadLetter.reason()));
    }

    /**
     * A message reusing the id of a pending one with another payload: filed under its own default id (the pending message
     * keeps the id's records), with where the pending one stands. Looking that up is one more call, on this rare path; if
     * it fails the detail says so rather than holding the batch.
     */
    private DeadLetter duplicateId(InboundMessage message, ScheduleRequest request) {
        String standing;
        try {
            MessageFacts facts = inspection.inspect(request.messageId()).get(STANDING_LOOKUP_MS, TimeUnit.MILLISECONDS);
            standing = facts.dueAt() != null ? "pending, due at " + Instant.ofEpochMilli(facts.dueAt()) + " (" + facts.dueAt() + ")"
                    : facts.leaseUntil() != null ? "in flight (being delivered)"
                    : "earlier in the same batch, or settled since";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            standing = "not looked up (interrupted)";
        } catch (ExecutionException | TimeoutException e) {
            standing = "not looked up (" + Failures.rootMessage(e) + ")";
        }
        String detail = "x-message-id '" + DeadLetter.bounded(request.messageId(), 200) + "' is already taken by a message with a"
                + " different payload (target, key, headers or body differ), " + standing + "; this message was not stored. Give it"
                + " an id of its own, or send it with x-control: replace to replace the pending one";
        LOG.warn("dead-lettering the message from {} as duplicate-id: {}", message.origin(), detail);
        return new DeadLetter(message.defaultMessageId(), DeadLetterReason.DUPLICATE_ID, detail, message.origin(), "", 0,
                message.key(), message.headers(), message.properties(), message.body());
    }

    private static DeadLetter deadLetterOf(InboundMessage message, DeadLetterReason reason, String detail) {
        List<MessageHeader> headers = message.headers();
        if (message.routingKey() != null) {
            headers = new ArrayList<>(headers);
            headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ROUTING_KEY, message.routingKey()));
        }
        return new DeadLetter(message.idForRecords(), reason, detail, message.origin(), "", 0,
                message.key(), headers, message.properties(), message.body());
    }
}
