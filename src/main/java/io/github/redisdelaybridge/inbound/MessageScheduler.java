package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.dispatch.DispatchWakeup;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.DelayStore;
import io.github.redisdelaybridge.store.ScheduleRequest;
import io.github.redisdelaybridge.store.ScheduleResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores accepted messages in Redis, applies control messages (cancel, reschedule), and sends rejected
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
 */
public final class MessageScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(MessageScheduler.class);
    private static final long OPERATION_TIMEOUT_MS = 30_000;

    private final DelayStore store;
    private final DeadLetters deadLetters;
    private final DispatchWakeup wakeup;
    private final BridgeMetrics metrics;
    private final ControlApplier controlApplier;
    private final BooleanSupplier stopping;
    private final int maxAttempts;

    /** {@code maxAttempts}: how often to try storing a batch before giving up; 0 for as long as the bridge runs. */
    public MessageScheduler(DelayStore store, DeadLetters deadLetters, DispatchWakeup wakeup, BooleanSupplier stopping,
                            BridgeMetrics metrics, int maxAttempts) {
        this.store = store;
        this.deadLetters = deadLetters;
        this.wakeup = wakeup;
        this.metrics = metrics;
        this.controlApplier = new ControlApplier(store, metrics);
        this.stopping = stopping;
        this.maxAttempts = maxAttempts;
    }

    /** Camel bean method. */
    public IngestReport schedule(ValidatedBatch batch) throws InterruptedException {
        List<ValidatedMessage.Accepted> accepted = new ArrayList<>();
        List<ValidatedMessage.Control> controls = new ArrayList<>();
        List<DeadLetter> rejected = new ArrayList<>();
        for (ValidatedMessage message : batch.messages()) {
            if (message instanceof ValidatedMessage.Accepted a) {
                accepted.add(a);
            } else if (message instanceof ValidatedMessage.Control c) {
                controls.add(c);
            } else {
                ValidatedMessage.Rejected r = (ValidatedMessage.Rejected) message;
                rejected.add(deadLetterOf(r.message(), r.rejection().reason(), r.rejection().detail()));
            }
        }
        List<ScheduleRequest> requests = accepted.stream().map(ValidatedMessage.Accepted::request).toList();
        List<ScheduleResult> results = requests.isEmpty() ? List.of()
                : retryUntilDone("store " + requests.size() + " messages in Redis", () -> store.schedule(requests));

        int scheduled = 0;
        int duplicates = 0;
        int cancelled = 0;
        long earliestDue = Long.MAX_VALUE;
        for (int i = 0; i < results.size(); i++) {
            ScheduleResult result = results.get(i);
            switch (result.outcome()) {
                case SCHEDULED -> {
                    scheduled++;
                    earliestDue = Math.min(earliestDue, result.dueAt());
                }
                case DUPLICATE_PENDING, DUPLICATE_DELIVERED -> {
                    duplicates++;
                    LOG.debug("not storing {} again: {}", requests.get(i).messageId(), result.outcome());
                }
                case DELAY_TOO_LONG -> rejected.add(deadLetterOf(accepted.get(i).message(), DeadLetterReason.DELAY_TOO_LONG,
                        "x-deliver-at lies beyond the maximum delay, measured on the Redis clock"));
                case CANCELLED -> {
                    cancelled++;
                    metrics.cancelledArrival();
                    LOG.info("dropping {} from {}: it was cancelled before it arrived", requests.get(i).messageId(),
                            accepted.get(i).message().origin());
                }
            }
        }
        List<ControlApplier.Applied> applied = controls.isEmpty() ? List.of()
                : retryUntilDone("apply " + controls.size() + " control messages in Redis", () -> controlApplier.apply(controls));
        for (ControlApplier.Applied control : applied) {
            Rejection refused = controlApplier.report(control);
            if (refused != null) {
                rejected.add(deadLetterOf(control.control().message(), refused.reason(), refused.detail()));
            } else if (control.change() != null && control.change().dueAt() >= 0) {
                earliestDue = Math.min(earliestDue, control.change().dueAt());
            }
        }
        if (earliestDue != Long.MAX_VALUE) {
            wakeup.wakeIfEarlierThan(earliestDue);
        }
        if (!rejected.isEmpty()) {
            for (DeadLetter deadLetter : rejected) {
                LOG.warn("dead-lettering {} from {}: {} ({})", deadLetter.messageId(), deadLetter.origin(),
                        deadLetter.reason().code(), deadLetter.detail());
            }
            retryUntilDone("record " + rejected.size() + " dead letters", () -> deadLetters.recordRejected(rejected));
            rejected.forEach(deadLetter -> metrics.deadLettered(deadLetter.reason()));
        }
        metrics.scheduled(scheduled);
        metrics.duplicates(duplicates);
        return new IngestReport(scheduled, duplicates, cancelled, controls.size(), rejected.size(), batch.acknowledgement());
    }

    private static DeadLetter deadLetterOf(InboundMessage message, DeadLetterReason reason, String detail) {
        return new DeadLetter(message.idForRecords(), reason, detail, message.origin(), "", 0,
                message.key(), message.headers(), message.properties(), message.body());
    }

    private <T> T retryUntilDone(String what, java.util.function.Supplier<CompletableFuture<T>> operation) throws InterruptedException {
        long backoffMs = 100;
        for (int attempt = 1; ; attempt++) {
            try {
                T result = operation.get().get(OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                if (attempt > 1) {
                    LOG.info("{} succeeded after {} attempts", what, attempt);
                }
                return result;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (stopping.getAsBoolean()) {
                    throw new IllegalStateException("bridge stopping; batch left unacknowledged upstream: could not " + what, e);
                }
                if (maxAttempts > 0 && attempt >= maxAttempts) {
                    throw new IllegalStateException("gave up after " + attempt + " attempts, batch not acknowledged upstream: could not "
                            + what + ": " + rootMessage(e), e);
                }
                if (maxAttempts == 0 && (attempt == 1 || attempt % 20 == 0)) {
                    LOG.warn("could not {} (attempt {}), holding the batch and retrying: {}", what, attempt, rootMessage(e));
                }
                Thread.sleep(backoffMs);
                backoffMs = Math.min(2_000, backoffMs * 2);
            }
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
