package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.inbound.DelayRequestValidator;
import io.github.redisdelaybridge.inbound.InboundMessage;
import io.github.redisdelaybridge.inbound.ValidatedMessage;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.StrictUtf8;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.ReplayResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Schedules a dead letter again: the same id, key, body and headers (without the bridge's own delay,
 * target, id, control and dead-letter headers), to its target or another, due now or later. The new
 * request goes through the same validation as an inbound message (target allow-list, size, maximum
 * delay), then one script schedules it and removes the dead letter together. Replay is an explicit
 * decision, so it also clears the id's dedupe and cancel records that would otherwise refuse it.
 */
final class DeadLetterReplay {

    /** What a successful replay scheduled. */
    record Replayed(String id, String target, long dueAt) {
    }

    private final InspectionStore store;
    private final DelayRequestValidator validator;
    private final long redisTimeoutMs;

    DeadLetterReplay(InspectionStore store, DelayRequestValidator validator, long redisTimeoutMs) {
        this.store = store;
        this.validator = validator;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /**
     * @param target  where to deliver, or null for the dead letter's own target
     * @param dueTime when, or null for now
     * @throws ApiException 404 unknown id, 409 when it cannot be replayed as it stands, 400 for a refused target or delay
     */
    Replayed replay(String id, String target, DueTime dueTime) {
        MessageFacts facts = StoreAnswers.await(store.inspect(id), redisTimeoutMs);
        String quoted = "'" + ApiRequests.abbreviate(id) + "'";
        if (facts.deadRecord() == null) {
            throw ApiException.notFound("no dead letter " + quoted);
        }
        DeadLetter deadLetter;
        try {
            deadLetter = DeadLetterCodec.decode(id, facts.deadRecord());
        } catch (RuntimeException unreadable) {
            throw ApiException.conflict("dead letter " + quoted + " cannot be read (" + unreadable.getMessage() + "); it can only be deleted");
        }
        if (deadLetter.reason() == DeadLetterReason.CORRUPT_ENVELOPE) {
            throw ApiException.conflict("dead letter " + quoted + " is a stored record this bridge could not read (corrupt-envelope);"
                    + " its body is that record, not a message, so it cannot be replayed; inspect it with ?body=true, then delete it");
        }
        if (lastText(deadLetter.headers(), HeaderNames.DEAD_LETTER_DROPPED).isPresent()) {
            throw ApiException.conflict("dead letter " + quoted + " was kept without parts of the message ("
                    + lastText(deadLetter.headers(), HeaderNames.DEAD_LETTER_DROPPED).get() + ": too large for the dead-letter store),"
                    + " so replaying it would deliver something else; the message can only be sent again by its producer");
        }
        if (lastText(deadLetter.headers(), HeaderNames.CONTROL).isPresent()) {
            throw ApiException.conflict("dead letter " + quoted + " is a control message (x-control); control messages are never"
                    + " delivered, so it cannot be replayed; send a corrected control message instead, and delete this one");
        }
        String replayTarget = target != null ? target
                : !deadLetter.target().isEmpty() ? deadLetter.target()
                : lastText(deadLetter.headers(), HeaderNames.TARGET).orElseThrow(() -> ApiException.badRequest(
                        "dead letter " + quoted + " has no target; give one: {\"target\": \"kafka:<topic>\"}"));
        ValidatedMessage validated = validator.validate(asInboundMessage(id, deadLetter, replayTarget,
                dueTime == null ? new DueTime.AfterDelay(0) : dueTime));
        if (!(validated instanceof ValidatedMessage.Accepted accepted)) {
            ValidatedMessage.Rejected rejected = (ValidatedMessage.Rejected) validated;
            throw ApiException.badRequest("cannot replay " + quoted + ": " + rejected.rejection().reason().code() + ": "
                    + rejected.rejection().detail());
        }
        ReplayResult result = StoreAnswers.await(store.replayDeadLetter(facts.deadRecord(), accepted.request()), redisTimeoutMs);
        return switch (result.outcome()) {
            case REPLAYED -> new Replayed(id, accepted.request().envelope().target(), result.dueAt());
            case NOT_FOUND -> throw ApiException.notFound("no dead letter " + quoted + " (deleted or replayed meanwhile)");
            case ID_IN_USE -> throw ApiException.conflict("a message " + quoted + " is pending or in flight; it would be overwritten");
            case CHANGED_MEANWHILE -> throw ApiException.conflict("dead letter " + quoted + " was replaced while being replayed; try again");
            case DELAY_TOO_LONG -> throw ApiException.badRequest("the due time lies beyond the maximum delay of "
                    + store.limits().maxDelayMs() + " ms (bridge.delay.max-ms), measured on Redis's clock");
        };
    }

    /**
     * The dead letter as if it arrived again with the bridge headers of the replay. Its id goes as the default id, not as
     * an x-message-id: the admin API may name a generated id, which a producer's x-message-id may not.
     */
    private static InboundMessage asInboundMessage(String id, DeadLetter deadLetter, String target, DueTime dueTime) {
        List<MessageHeader> headers = new ArrayList<>();
        for (MessageHeader header : deadLetter.headers()) {
            if (!HeaderNames.SET_BY_BRIDGE.contains(header.name()) && !HeaderNames.isDeadLetterHeader(header.name())) {
                headers.add(header);
            }
        }
        headers.add(MessageHeader.text(HeaderNames.TARGET, target));
        if (dueTime instanceof DueTime.AfterDelay delay) {
            headers.add(MessageHeader.text(HeaderNames.DELAY, Long.toString(delay.delayMs())));
        } else {
            headers.add(MessageHeader.text(HeaderNames.DELIVER_AT, Long.toString(((DueTime.At) dueTime).epochMs())));
        }
        return new InboundMessage(deadLetter.origin(), "", id, deadLetter.key(), headers, deadLetter.properties(), deadLetter.body());
    }

    private static Optional<String> lastText(List<MessageHeader> headers, String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                byte[] value = headers.get(i).plainBytes();
                return Optional.ofNullable(value == null ? null : StrictUtf8.decode(value)).map(String::strip);
            }
        }
        return Optional.empty();
    }
}
