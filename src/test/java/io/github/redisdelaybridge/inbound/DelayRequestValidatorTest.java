package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DelayRequestValidatorTest {

    private static final String INBOUND = "delay.inbound";
    private static final String INBOUND_WITH_DEFAULT = "delay.with-default";
    private static final long MAX_DELAY_MS = 86_400_000;
    private static final long MAX_PAYLOAD_BYTES = 1_000;
    private static final byte[] INVALID_UTF8 = {(byte) 0xC3, (byte) 0x28};

    private final DelayRequestValidator validator = new DelayRequestValidator(
            new DueTimeParser(MAX_DELAY_MS),
            new TargetPolicy(List.of("kafka:orders.*", "kafka:" + INBOUND, "rabbitmq:billing/*"), Set.of("kafka:" + INBOUND),
                    Set.of("kafka")),
            Map.of(INBOUND_WITH_DEFAULT, "kafka:orders.default"),
            MAX_PAYLOAD_BYTES);

    // --- accepted messages -----------------------------------------------------------------------------

    @Test
    void acceptsDelayWithTargetAndMessageId() {
        ScheduleRequest request = accepted(message(header("x-delay", "1500"), header("x-target", "kafka:orders.expired"),
                header("x-message-id", "order-1-timeout")));

        assertThat(request.messageId()).isEqualTo("order-1-timeout");
        assertThat(request.dueTime()).isEqualTo(new DueTime.AfterDelay(1500));
        assertThat(request.envelope().messageId()).isEqualTo("order-1-timeout");
        assertThat(request.envelope().target()).isEqualTo("kafka:orders.expired");
    }

    @Test
    void acceptsDeliverAt() {
        ScheduleRequest request = accepted(message(header("x-deliver-at", "2026-12-01T10:00:00Z"), header("x-target", "kafka:orders.a")));

        assertThat(request.dueTime()).isEqualTo(new DueTime.At(1_796_119_200_000L));
    }

    @Test
    void envelopeKeepsKeyBodyOriginAndProperties() {
        byte[] key = {0, (byte) 0xFF, 7};
        byte[] body = {1, 2, (byte) 0x80};
        InboundMessage message = new InboundMessage("kafka:delay.inbound/3@99", INBOUND, "delay.inbound-3-99", key,
                delayedTo("kafka:orders.a"), Map.of("content-type", "application/json"), body);

        Envelope envelope = accepted(message).envelope();

        assertThat(envelope.key()).isEqualTo(key);
        assertThat(envelope.body()).isEqualTo(body);
        assertThat(envelope.origin()).isEqualTo("kafka:delay.inbound/3@99");
        assertThat(envelope.properties()).isEqualTo(Map.of("content-type", "application/json"));
    }

    @Test
    void defaultMessageIdIsUsedWithoutXMessageId() {
        ScheduleRequest request = accepted(message(header("x-delay", "10"), header("x-target", "kafka:orders.a")));

        assertThat(request.messageId()).isEqualTo("delay.inbound-0-42");
        assertThat(request.envelope().messageId()).isEqualTo("delay.inbound-0-42");
    }

    @Test
    void messageIdIsStrippedAndTheLastOneWins() {
        ScheduleRequest request = accepted(message(header("x-delay", "10"), header("x-target", "kafka:orders.a"),
                header("x-message-id", "first"), header("x-message-id", "  last  ")));

        assertThat(request.messageId()).isEqualTo("last");
    }

    @Test
    void messageIdOfExactly512BytesIsAccepted() {
        String id = "ü".repeat(256); // 2 bytes each

        assertThat(accepted(message(header("x-delay", "1"), header("x-target", "kafka:orders.a"), header("x-message-id", id)))
                .messageId()).isEqualTo(id);
    }

    @Test
    void delayControlHeadersAreRemovedAndAllOthersKeptInOrder() {
        MessageHeader trace = header("trace", "t-1");
        MessageHeader hop1 = header("hop", "1");
        MessageHeader nullValue = new MessageHeader("empty", null);
        MessageHeader binary = new MessageHeader("bin", INVALID_UTF8);
        MessageHeader hop2 = header("hop", "2");
        MessageHeader similarName = header("x-delay-extra", "kept");
        ScheduleRequest request = accepted(message(trace, header("x-delay", "5"), hop1, header("x-target", "kafka:orders.a"),
                nullValue, header("x-message-id", "m-1"), binary, hop2, similarName));

        assertThat(request.envelope().headers()).containsExactly(trace, hop1, nullValue, binary, hop2, similarName);
    }

    @Test
    void deliverAtHeaderIsNotPassedOn() {
        MessageHeader kept = header("kept", "yes");
        ScheduleRequest request = accepted(message(header("x-deliver-at", "0"), kept, header("x-target", "kafka:orders.a")));

        assertThat(request.envelope().headers()).containsExactly(kept);
    }

    @Test
    void defaultTargetOfTheSourceIsUsedWithoutXTarget() {
        InboundMessage message = messageFrom(INBOUND_WITH_DEFAULT, header("x-delay", "5"));

        assertThat(accepted(message).envelope().target()).isEqualTo("kafka:orders.default");
    }

    @Test
    void explicitTargetWinsOverTheDefaultTarget() {
        InboundMessage message = messageFrom(INBOUND_WITH_DEFAULT, header("x-delay", "5"), header("x-target", "kafka:orders.b"));

        assertThat(accepted(message).envelope().target()).isEqualTo("kafka:orders.b");
    }

    @Test
    void targetIsStripped() {
        assertThat(accepted(message(header("x-delay", "5"), header("x-target", "  kafka:orders.a "))).envelope().target())
                .isEqualTo("kafka:orders.a");
    }

    @Test
    void payloadOfExactlyTheMaximumIsAccepted() {
        List<MessageHeader> headers = delayedTo("kafka:orders.a");
        long headerBytes = withBody(headers, new byte[0]).size();
        InboundMessage message = withBody(headers, new byte[(int) (MAX_PAYLOAD_BYTES - headerBytes)]);

        assertThat(message.size()).isEqualTo(MAX_PAYLOAD_BYTES);
        assertThat(validator.validate(message)).isInstanceOf(ValidatedMessage.Accepted.class);
    }

    @Test
    void tombstoneWithNullBodyIsAcceptedAndStaysATombstone() {
        InboundMessage tombstone = withBody(delayedTo("kafka:orders.a"), null);

        assertThat(accepted(tombstone).envelope().body()).isNull();
    }

    // --- rejections -----------------------------------------------------------------------------------

    @Test
    void missingDelay() {
        assertRejected(message(header("x-target", "kafka:orders.a")), DeadLetterReason.MISSING_DELAY);
    }

    @Test
    void conflictingDelay() {
        assertRejected(message(header("x-delay", "5"), header("x-deliver-at", "0"), header("x-target", "kafka:orders.a")),
                DeadLetterReason.CONFLICTING_DELAY);
    }

    @Test
    void invalidDelay() {
        assertRejected(message(header("x-delay", "soon"), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY);
        assertRejected(message(header("x-deliver-at", "soon"), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY);
    }

    @Test
    void fractionalDelayIsDeadLetteredAsInvalidSayingWholeMilliseconds() {
        // 1.5 used to be rounded up to 2 ms: delivered at once, though the producer most likely meant seconds
        for (MessageHeader fractional : List.of(header("x-delay", "1.5"), header("x-delay", " 1500.0 "),
                MessageHeader.amqp("x-delay", new java.math.BigDecimal("1.5")), MessageHeader.amqp("x-delay", 1.5d))) {
            Rejection rejection = rejected(message(fractional, header("x-target", "kafka:orders.a")));

            assertThat(rejection.reason()).as("%s", fractional).isEqualTo(DeadLetterReason.INVALID_DELAY);
            assertThat(rejection.detail()).as("%s", fractional).contains("x-delay must be a whole number of milliseconds (an integer");
        }
    }

    @Test
    void isoDurationDelayIsAcceptedAsTheUnambiguousWayToWriteFractionsAndUnits() {
        assertThat(accepted(message(header("x-delay", "PT1.5S"), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(1_500));
        assertThat(accepted(message(header("x-delay", " PT30S "), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(30_000));
        assertThat(accepted(message(MessageHeader.amqp("x-delay", "P1D"), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(86_400_000));
        assertThat(accepted(message(MessageHeader.amqp("x-delay", 1500), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(1_500));
    }

    @Test
    void negativeOrTooLongIsoDurationIsRefused() {
        assertRejected(message(header("x-delay", "-PT5S"), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY);
        assertRejected(message(header("x-delay", "P1DT0.001S"), header("x-target", "kafka:orders.a")), DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void deliverAtBeyondTheEpochMillisecondRangeIsRejectedNotThrown() {
        assertRejected(message(header("x-deliver-at", "+999999999-12-31T23:59:59Z"), header("x-target", "kafka:orders.a")),
                DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void delayHeaderWithoutValueIsInvalid() {
        assertRejected(message(new MessageHeader("x-delay", null), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY);
    }

    @Test
    void delayTooLong() {
        assertRejected(message(header("x-delay", Long.toString(MAX_DELAY_MS + 1)), header("x-target", "kafka:orders.a")),
                DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void missingTargetWhenTheSourceHasNoDefault() {
        Rejection rejection = rejected(message(header("x-delay", "5")));

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.MISSING_TARGET);
        assertThat(rejection.detail()).contains(INBOUND);
    }

    @Test
    void invalidTargetSyntax() {
        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:bad topic")), DeadLetterReason.INVALID_TARGET);
        assertRejected(message(header("x-delay", "5"), header("x-target", "smtp:someone")), DeadLetterReason.INVALID_TARGET);
    }

    @Test
    void targetOnABrokerWithoutPublisherIsInvalid() {
        Rejection rejection = rejected(message(header("x-delay", "5"), header("x-target", "rabbitmq:billing/due")));

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_TARGET);
        assertThat(rejection.detail()).contains("rabbitmq");
    }

    @Test
    void targetMissingFromTheAllowListIsForbidden() {
        Rejection rejection = rejected(message(header("x-delay", "5"), header("x-target", "kafka:payments.due")));

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
        assertThat(rejection.detail()).contains("allow-list");
    }

    @Test
    void targetThatLoopsIntoAnInboundTopicIsForbiddenEvenIfAllowListed() {
        Rejection rejection = rejected(message(header("x-delay", "5"), header("x-target", "kafka:" + INBOUND)));

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
        assertThat(rejection.detail()).contains("loop");
    }

    @Test
    void emptyMessageIdIsInvalid() {
        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", "")),
                DeadLetterReason.INVALID_MESSAGE_ID);
        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", "   ")),
                DeadLetterReason.INVALID_MESSAGE_ID);
        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), new MessageHeader("x-message-id", null)),
                DeadLetterReason.INVALID_MESSAGE_ID);
    }

    @Test
    void messageIdWithAControlCharacterIsInvalidSoThatItCannotForgeALogLine() {
        for (String id : List.of("order-1\n12:00:00.000 INFO admin write", "order-1\rX", "order-\u001b[31m", "order\u00851",
                "order\u20281", "a\u0000b", "tab\there")) {
            Rejection rejection = rejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", id)));
            assertThat(rejection.reason()).as(id).isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
            assertThat(rejection.detail()).as(id).contains("control character").doesNotContain("\n", "\r", "\u001b");
        }
        assertThat(accepted(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", "bestellung/42 ü"))).messageId())
                .isEqualTo("bestellung/42 ü");
    }

    @Test
    void messageIdLongerThan512BytesIsInvalid() {
        String id = "ü".repeat(256) + "x"; // 513 bytes in 257 characters

        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", id)),
                DeadLetterReason.INVALID_MESSAGE_ID);
    }

    @Test
    void messageIdThatIsNotUtf8IsInvalid() {
        assertRejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), new MessageHeader("x-message-id", INVALID_UTF8)),
                DeadLetterReason.INVALID_MESSAGE_ID);
    }

    @Test
    void payloadTooLarge() {
        InboundMessage message = withBody(delayedTo("kafka:orders.a"), new byte[(int) MAX_PAYLOAD_BYTES]);

        assertRejected(message, DeadLetterReason.PAYLOAD_TOO_LARGE);
    }

    @Test
    void keyAndHeadersCountTowardsThePayloadLimit() {
        List<MessageHeader> headers = new ArrayList<>(delayedTo("kafka:orders.a"));
        headers.add(new MessageHeader("big", new byte[(int) MAX_PAYLOAD_BYTES / 2]));
        InboundMessage message = new InboundMessage("o", INBOUND, "id", new byte[(int) MAX_PAYLOAD_BYTES / 2], headers, Map.of(),
                new byte[1]);

        assertRejected(message, DeadLetterReason.PAYLOAD_TOO_LARGE);
    }

    @Test
    void nonUtf8DelayControlHeadersAreRejectedNotThrown() {
        assertRejected(message(new MessageHeader("x-delay", INVALID_UTF8), header("x-target", "kafka:orders.a")),
                DeadLetterReason.INVALID_DELAY);
        assertRejected(message(new MessageHeader("x-deliver-at", INVALID_UTF8), header("x-target", "kafka:orders.a")),
                DeadLetterReason.INVALID_DELAY);
        assertRejected(message(header("x-delay", "5"), new MessageHeader("x-target", INVALID_UTF8)), DeadLetterReason.INVALID_TARGET);
    }

    /** Above the longest header, so that the header limits, not the payload limit, decide. */
    private final DelayRequestValidator roomyValidator = new DelayRequestValidator(new DueTimeParser(MAX_DELAY_MS),
            new TargetPolicy(List.of("kafka:orders.*", "rabbitmq:billing/*"), Set.of(), Set.of("kafka", "rabbitmq")), Map.of(), 1 << 20);

    @Test
    void eachHeaderLongerThanItsLimitIsRejectedWithItsReasonQuotingOnlyItsStart() {
        String longDelay = "1".repeat(200_000) + "x";
        assertOverLimit(message(header("x-delay", longDelay), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY, 200_001);
        assertOverLimit(message(header("x-deliver-at", "7".repeat(65)), header("x-target", "kafka:orders.a")), DeadLetterReason.INVALID_DELAY, 65);
        assertOverLimit(message(header("x-delay", "5"), header("x-target", "kafka:orders." + "a".repeat(1_100))), DeadLetterReason.INVALID_TARGET,
                1_113);
        assertOverLimit(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", "i".repeat(513))),
                DeadLetterReason.INVALID_MESSAGE_ID, 513);
        assertOverLimit(message(header("x-control", " ".repeat(30) + "cancel"), header("x-message-id", "m-1")), DeadLetterReason.INVALID_CONTROL, 36);
        assertOverLimit(message(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", longDelay)),
                DeadLetterReason.INVALID_DELAY, 200_001);
    }

    @Test
    void theLengthLimitIsOnTheBytesBeforeTheyAreDecoded() {
        byte[] notUtf8 = new byte[100_000];
        Arrays.fill(notUtf8, (byte) 0x80);

        ValidatedMessage validated = roomyValidator.validate(message(new MessageHeader("x-delay", notUtf8), header("x-target", "kafka:orders.a")));
        Rejection rejection = ((ValidatedMessage.Rejected) validated).rejection();

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(rejection.detail()).contains("100000 bytes").doesNotContain("UTF-8");
    }

    @Test
    void valuesAtTheirLimitAreReadAsUsual() {
        assertThat(accepted(message(header("x-delay", "0".repeat(60) + "1500"), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(1500));
        assertThat(accepted(message(header("x-deliver-at", "0".repeat(51) + "1764450000000"), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.At(1_764_450_000_000L));
        String target = "rabbitmq:billing/" + "k".repeat(255);
        assertThat(roomyValidator.validate(message(header("x-delay", "5"), header("x-target", target), header("x-message-id", "i".repeat(512)))))
                .isInstanceOf(ValidatedMessage.Accepted.class);
        assertThat(validator.validate(message(header("x-control", " ".repeat(26) + "cancel"), header("x-message-id", "m-1"))))
                .isInstanceOf(ValidatedMessage.Control.class);
    }

    private void assertOverLimit(InboundMessage message, DeadLetterReason reason, int bytes) {
        ValidatedMessage validated = roomyValidator.validate(message);
        assertThat(validated).as("validation of %s", message.headers()).isInstanceOf(ValidatedMessage.Rejected.class);
        Rejection rejection = ((ValidatedMessage.Rejected) validated).rejection();

        assertThat(rejection.reason()).as("reason for %s", message.headers()).isEqualTo(reason);
        assertThat(rejection.detail()).as("detail for %s", message.headers()).contains(bytes + " bytes").hasSizeLessThan(200);
        if (bytes > 64) {
            assertThat(rejection.detail()).as("detail for %s", message.headers()).endsWith("...'");
        }
    }

    @Test
    void lastDelayHeaderDecides() {
        assertRejected(message(header("x-delay", "5"), header("x-delay", "bad"), header("x-target", "kafka:orders.a")),
                DeadLetterReason.INVALID_DELAY);
        assertThat(accepted(message(header("x-delay", "bad"), header("x-delay", "7"), header("x-target", "kafka:orders.a"))).dueTime())
                .isEqualTo(new DueTime.AfterDelay(7));
    }

    @Test
    void batchValidationKeepsOrderAndAcknowledgement() {
        UpstreamAcknowledgement acknowledgement = () -> { };
        InboundMessage good = message(header("x-delay", "5"), header("x-target", "kafka:orders.a"));
        InboundMessage bad = message(header("x-target", "kafka:orders.a"));

        ValidatedBatch batch = validator.validate(new InboundBatch(List.of(good, bad, good), acknowledgement));

        assertThat(batch.acknowledgement()).isSameAs(acknowledgement);
        assertThat(batch.messages()).extracting(m -> m.getClass().getSimpleName()).containsExactly("Accepted", "Rejected", "Accepted");
        assertThat(batch.messages()).extracting(ValidatedMessage::message).containsExactly(good, bad, good);
    }

    // --- helpers --------------------------------------------------------------------------------------

    private ScheduleRequest accepted(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).as("validation of %s", message.headers()).isInstanceOf(ValidatedMessage.Accepted.class);
        return ((ValidatedMessage.Accepted) validated).request();
    }

    private Rejection rejected(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).as("validation of %s", message.headers()).isInstanceOf(ValidatedMessage.Rejected.class);
        assertThat(validated.message()).isSameAs(message);
        return ((ValidatedMessage.Rejected) validated).rejection();
    }

    private void assertRejected(InboundMessage message, DeadLetterReason reason) {
        assertThat(rejected(message).reason()).isEqualTo(reason);
    }

    private static InboundMessage message(MessageHeader... headers) {
        return messageFrom(INBOUND, headers);
    }

    private static InboundMessage messageFrom(String source, MessageHeader... headers) {
        return new InboundMessage("kafka:" + source + "/0@42", source, source + "-0-42", null, Arrays.asList(headers), Map.of(),
                "body".getBytes(StandardCharsets.UTF_8));
    }

    private static InboundMessage withBody(List<MessageHeader> headers, byte[] body) {
        return new InboundMessage("kafka:" + INBOUND + "/0@42", INBOUND, INBOUND + "-0-42", null, headers, Map.of(), body);
    }

    private static List<MessageHeader> delayedTo(String target) {
        return List.of(header("x-delay", "5"), header("x-target", target));
    }

    private static MessageHeader header(String name, String value) {
        return MessageHeader.text(name, value);
    }
}
