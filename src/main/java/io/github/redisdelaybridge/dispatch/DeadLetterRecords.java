package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** The dead letters of claimed messages that will not be delivered: what they carry and the reason they give. */
final class DeadLetterRecords {

    /** Longest x-target echoed on a publish-failed dead letter (valid targets are shorter; the record keeps it whole). */
    static final int MAX_TARGET_ECHO_CHARS = 1_024;

    private DeadLetterRecords() {
    }

    /** The broker refused the message for a reason retrying cannot fix: dead-lettered at its first failure. */
    static DeadLetter permanentFailure(ClaimedMessage message, int attempts, Throwable failure) {
        return publishFailed(message, attempts, target -> "publishing to " + target + " failed permanently, not retried: "
                + Failures.rootMessage(failure));
    }

    /** Its publishes kept failing for longer than {@code bridge.retry.max-age-ms}. */
    static DeadLetter failingTooLong(ClaimedMessage message, int attempts, long failingForMs, long failingSince, long maxAgeMs,
                                     Throwable lastFailure) {
        return publishFailed(message, attempts, target -> "publishing to " + target + " has been failing for " + failingForMs
                + " ms (since " + Instant.ofEpochMilli(failingSince) + ", " + attempts + " attempts), longer than bridge.retry.max-age-ms ("
                + maxAgeMs + " ms); last error: " + Failures.rootMessage(lastFailure));
    }

    /** Its publishes failed {@code bridge.retry.max-attempts} times (a bound by count, when one is set). */
    static DeadLetter attemptsExhausted(ClaimedMessage message, int attempts, Throwable lastFailure) {
        return publishFailed(message, attempts, target -> "publishing to " + target + " failed " + attempts
                + " times (bridge.retry.max-attempts); last error: " + Failures.rootMessage(lastFailure));
    }

    /** Parked with its failing target for longer than {@code bridge.retry.max-age-ms}: not tried again. */
    static DeadLetter parkedTooLong(ClaimedMessage message, ParkedTooLongException tooLong) {
        return publishFailed(message, message.attempts(), target -> tooLong.getMessage());
    }

    /** Later than its target pattern allows: not published at all. */
    static DeadLetter expired(ClaimedMessage message, MessageExpiredException expired) {
        DeadLetter undelivered = publishFailed(message, message.attempts(), target -> expired.getMessage());
        return new DeadLetter(undelivered.messageId(), DeadLetterReason.EXPIRED, undelivered.detail(), undelivered.origin(), undelivered.target(),
                undelivered.attempts(), undelivered.key(), undelivered.headers(), undelivered.properties(), undelivered.body());
    }

    /** A readable message that will not be published: the message as stored, with its target as a header. */
    private static DeadLetter publishFailed(ClaimedMessage message, int attempts, Function<String, String> detail) {
        Envelope envelope = EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope());
        List<MessageHeader> headers = new ArrayList<>(envelope.headers());
        // the target echoed for whoever reads the dead letter; bounded, as every part of a dead letter the bridge adds
        headers.add(MessageHeader.text(HeaderNames.TARGET, DeadLetter.bounded(envelope.target(), MAX_TARGET_ECHO_CHARS)));
        return new DeadLetter(envelope.messageId(), DeadLetterReason.PUBLISH_FAILED, detail.apply(envelope.target()),
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
