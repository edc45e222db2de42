package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.ClaimedMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The dead letters of claimed messages that will not be delivered: what they carry and the reason they give. */
final class DeadLetterRecords {

    private DeadLetterRecords() {
    }

    /** A readable message whose publishes kept failing: the message as stored, with its target as a header. */
    static DeadLetter publishFailed(ClaimedMessage message, int attempts, Throwable lastFailure) {
        Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
        List<MessageHeader> headers = new ArrayList<>(envelope.headers());
        headers.add(MessageHeader.text(HeaderNames.TARGET, envelope.target()));
        return new DeadLetter(envelope.messageId(), DeadLetterReason.PUBLISH_FAILED,
                "publishing to " + envelope.target() + " failed " + attempts + " times; last error: " + Failures.rootMessage(lastFailure),
                envelope.origin(), envelope.target(), attempts, envelope.key(), headers, envelope.properties(), envelope.body());
    }

    /** A stored record the bridge cannot read: the record itself as the body, so nothing of it is lost. */
    static DeadLetter corruptEnvelope(ClaimedMessage message, Throwable failure) {
        return new DeadLetter(message.messageId(), DeadLetterReason.CORRUPT_ENVELOPE,
                "stored record cannot be read: " + Failures.rootMessage(failure), "redis", "", message.attempts(), null, List.of(),
                Map.of(), message.encodedEnvelope());
    }

    /**
     * A due message whose payload Redis no longer holds: only its id (and member) and due time are left, so the dead
     * letter carries no body, headers or target; the detail says what is known.
     */
    static DeadLetter payloadMissing(ClaimedMessage message) {
        return new DeadLetter(message.messageId(), DeadLetterReason.PAYLOAD_MISSING, PayloadMissingException.detail(message), "redis", "",
                message.attempts(), null, List.of(), Map.of(), new byte[0]);
    }
}
