package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.Via;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.DueTimeChange;
import io.github.redisdelaybridge.store.ingest.GroupOutcome;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.ingest.Replacement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies control messages to the store, and logs and counts what each one did. Controls naming the
 * same message are applied one after the other in arrival order (a reschedule then a cancel must not
 * be swapped); controls of different messages go in parallel.
 *
 * <p>A cancel from a control message records the cancel when the message is not known yet, so that the
 * message is dropped if it arrives later (it may travel on another partition or queue). A cancel or
 * reschedule that comes too late (the message is in flight or delivered) changes nothing: it is logged
 * as a warning and counted ({@code bridge_cancels_total{outcome="in-flight"}}), not dead-lettered,
 * since the control message itself was valid and replaying it later could not help.
 *
 * <p>A replace carries a payload of its own, so a replace that changes nothing (the message in flight, delivered,
 * cancelled, a dead letter or unknown) is dead-lettered as {@code not-replaced}, saying where the id stands: the
 * replacement is never dropped silently, nor delivered besides the old payload.
 */
final class ControlApplier {

    private static final Logger LOG = LoggerFactory.getLogger(ControlApplier.class);

    /**
     * One control message and what it did: a cancel outcome, a due-time change, a replacement, or what a group control did
     * (the others null).
     */
    record Applied(ValidatedMessage.Control control, CancelOutcome cancel, DueTimeChange change, Replacement replacement,
            GroupOutcome group) {

        /** The due time the control gave its message or group (epoch ms), or -1. */
        long newDueAt() {
            if (change != null) {
                return change.dueAt();
            }
            if (replacement != null) {
                return replacement.dueAt();
            }
            return group != null && group.changed() > 0 && !group.tooLate() ? group.dueAt() : -1;
        }
    }

    private final IngestStore store;
    private final BridgeMetrics metrics;

    ControlApplier(IngestStore store, BridgeMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    CompletableFuture<List<Applied>> apply(List<ValidatedMessage.Control> controls) {
        Map<String, CompletableFuture<?>> lastById = new HashMap<>();
        List<CompletableFuture<Applied>> applied = new ArrayList<>(controls.size());
        for (ValidatedMessage.Control control : controls) {
            String subject = control.request().subject();
            CompletableFuture<?> previous = lastById.getOrDefault(subject, CompletableFuture.completedFuture(null));
            CompletableFuture<Applied> next = previous.thenCompose(done -> applyOne(control));
            lastById.put(subject, next);
            applied.add(next);
        }
        return CompletableFuture.allOf(applied.toArray(CompletableFuture[]::new))
                .thenApply(done -> applied.stream().map(CompletableFuture::join).toList());
    }

    private CompletableFuture<Applied> applyOne(ValidatedMessage.Control control) {
        ControlRequest request = control.request();
        if (request instanceof ControlRequest.Reschedule reschedule) {
            return store.changeDueTime(reschedule.messageId(), reschedule.dueTime())
                    .thenApply(change -> new Applied(control, null, change, null, null));
        }
        if (request instanceof ControlRequest.Replace replace) {
            return store.replace(replace.replacement()).thenApply(replaced -> new Applied(control, null, null, replaced, null));
        }
        if (request instanceof ControlRequest.CancelGroup cancel) {
            return store.cancelGroup(cancel.group(), false).thenApply(outcome -> new Applied(control, null, null, null, outcome));
        }
        if (request instanceof ControlRequest.RescheduleGroup reschedule) {
            return store.rescheduleGroup(reschedule.group(), reschedule.dueTime(), false)
                    .thenApply(outcome -> new Applied(control, null, null, null, outcome));
        }
        return store.cancel(((ControlRequest.Cancel) request).messageId(), true)
                .thenApply(outcome -> new Applied(control, outcome, null, null, null));
    }

    /** Logs and counts what a control did; returns why the control message must be dead-lettered, or null. */
    Rejection report(Applied applied) {
        String origin = applied.control().message().origin();
        if (applied.group() != null) {
            return reportGroup(applied.control().request(), applied.group(), origin);
        }
        ControlRequest request = applied.control().request();
        String id = request instanceof ControlRequest.Cancel cancel ? cancel.messageId()
                : request instanceof ControlRequest.Replace replace ? replace.messageId()
                : ((ControlRequest.Reschedule) request).messageId();
        if (applied.cancel() != null) {
            metrics.cancel(applied.cancel(), Via.MESSAGE);
            switch (applied.cancel()) {
                case WITHDRAWN -> LOG.info("cancelled {} (control message {}): it will not be delivered", id, origin);
                case RECORDED -> LOG.info("cancel of {} (control message {}) arrived before the message: recorded, the message is dropped"
                        + " if it arrives within the cancel window", id, origin);
                case ALREADY_CANCELLED -> LOG.info("{} was already cancelled (control message {})", id, origin);
                case IN_FLIGHT -> LOG.warn("cannot cancel {} (control message {}): it is being delivered already", id, origin);
                case ALREADY_DELIVERED -> LOG.warn("cannot cancel {} (control message {}): it was delivered already", id, origin);
                case DEAD_LETTER -> LOG.warn("cancel of {} (control message {}) changed nothing: it is a dead letter, not delivered"
                        + " unless replayed", id, origin);
                case NOT_FOUND -> LOG.warn("cancel of {} (control message {}) changed nothing: no such message, and with"
                        + " bridge.cancel.window-ms = 0 no cancel is recorded for a later arrival", id, origin);
            }
            return null;
        }
        if (applied.replacement() != null) {
            return reportReplace(applied.replacement(), id, origin);
        }
        DueTimeChange change = applied.change();
        metrics.reschedule(change.outcome(), Via.MESSAGE);
        switch (change.outcome()) {
            case CHANGED -> LOG.info("rescheduled {} (control message {}): now due at {}", id, origin, change.dueAt());
            case IN_FLIGHT -> LOG.warn("cannot reschedule {} (control message {}): it is being delivered already", id, origin);
            case NOT_PENDING -> LOG.warn("cannot reschedule {} (control message {}): no pending message with this id"
                    + " (not arrived yet, delivered, cancelled or dead)", id, origin);
            case DELAY_TOO_LONG -> {
                return new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                        "x-deliver-at lies beyond the maximum delay, measured on the Redis clock");
            }
        }
        return null;
    }

    private Rejection reportReplace(Replacement replacement, String id, String origin) {
        metrics.replace(replacement.outcome(), Via.MESSAGE);
        String unchanged = "; this replacement was not stored and will not be delivered";
        return switch (replacement.outcome()) {
            case REPLACED -> {
                LOG.info("replaced {} (control message {}): new payload, now due at {}", id, origin, replacement.dueAt());
                yield null;
            }
            case IN_FLIGHT -> new Rejection(DeadLetterReason.NOT_REPLACED, "x-message-id '" + bounded(id) + "' is in flight: it is"
                    + " being delivered with its old payload" + unchanged);
            case ALREADY_DELIVERED -> new Rejection(DeadLetterReason.NOT_REPLACED, "x-message-id '" + bounded(id) + "' was delivered"
                    + " already (within the dedupe window)" + unchanged);
            case ALREADY_CANCELLED -> new Rejection(DeadLetterReason.NOT_REPLACED, "x-message-id '" + bounded(id) + "' was cancelled"
                    + " (within the cancel window)" + unchanged);
            case DEAD_LETTER -> new Rejection(DeadLetterReason.NOT_REPLACED, "x-message-id '" + bounded(id) + "' is a dead letter"
                    + " (replay or delete it over the admin API)" + unchanged);
            case NOT_FOUND -> new Rejection(DeadLetterReason.NOT_REPLACED, "x-message-id '" + bounded(id) + "' names no pending"
                    + " message (not arrived yet, or long gone); a replace never creates one: send it without x-control to store it"
                    + " as a new message" + unchanged);
            case DELAY_TOO_LONG -> new Rejection(DeadLetterReason.DELAY_TOO_LONG,
                    "x-deliver-at lies beyond the maximum delay, measured on the Redis clock; the pending message was not replaced");
        };
    }

    private static String bounded(String id) {
        return DeadLetter.bounded(id, 200);
    }

    private static Rejection reportGroup(ControlRequest request, GroupOutcome outcome, String origin) {
        if (request instanceof ControlRequest.CancelGroup cancel) {
            LOG.info("cancelled {} pending messages of group {} (control message {}); {} in flight left alone", outcome.changed(),
                    cancel.group(), origin, outcome.inFlight());
            return null;
        }
        ControlRequest.RescheduleGroup reschedule = (ControlRequest.RescheduleGroup) request;
        if (outcome.tooLate()) {
            return new Rejection(DeadLetterReason.DELAY_TOO_LONG, "the new due time of group " + reschedule.group()
                    + " lies beyond the maximum delay, measured on the Redis clock; no message of it was changed");
        }
        LOG.info("rescheduled {} pending messages of group {} (control message {}): now due at {}; {} in flight left alone",
                outcome.changed(), reschedule.group(), origin, outcome.dueAt(), outcome.inFlight());
        return null;
    }
}
