package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** x-group on a message and the group controls (cancel-group, reschedule-group) through DelayRequestValidator. */
class GroupHeaderValidatorTest {

    private final DelayRequestValidator validator = new DelayRequestValidator(new DueTimeParser(86_400_000),
            new TargetPolicy(List.of("kafka:*"), Set.of("kafka:delay.inbound"), Set.of("kafka")), Map.of(), 10_000);

    @Test
    void aValidGroupIsKeptAsAHeaderAndFlagsTheEnvelope() {
        ValidatedMessage validated = validator.validate(message(text("x-delay", "10"), text("x-target", "kafka:out"), text("x-group", "order 42 ✓")));

        assertThat(validated).isInstanceOf(ValidatedMessage.Accepted.class);
        var envelope = ((ValidatedMessage.Accepted) validated).request().envelope();
        assertThat(envelope.headers()).extracting(MessageHeader::name).contains(HeaderNames.GROUP);
        assertThat(EnvelopeCodec.groupOf(EnvelopeCodec.encode(envelope))).isEqualTo("order 42 ✓");
    }

    @Test
    void aGroupOf256BytesIsValidAndOf257Not() {
        assertThat(validator.validate(message(text("x-delay", "10"), text("x-target", "kafka:out"), text("x-group", "g".repeat(256)))))
                .isInstanceOf(ValidatedMessage.Accepted.class);
        Rejection tooLong = rejected(text("x-delay", "10"), text("x-target", "kafka:out"), text("x-group", "g".repeat(257)));
        assertThat(tooLong.reason()).isEqualTo(DeadLetterReason.INVALID_GROUP);
        assertThat(tooLong.detail()).contains("257 bytes").contains("256");
    }

    @Test
    void badGroupsAreDeadLetteredAsInvalidGroup() {
        List<List<MessageHeader>> bad = new ArrayList<>();
        bad.add(List.of(text("x-group", "")));
        bad.add(List.of(new MessageHeader("x-group", null)));
        bad.add(List.of(new MessageHeader("x-group", new byte[] {(byte) 0xC3, 0x28})));
        bad.add(List.of(text("x-group", "line\nbreak")));
        bad.add(List.of(text("x-group", "a"), text("x-group", "b")));
        bad.add(List.of(MessageHeader.amqp("x-group", 42)));
        for (List<MessageHeader> group : bad) {
            List<MessageHeader> headers = new ArrayList<>(List.of(text("x-delay", "10"), text("x-target", "kafka:out")));
            headers.addAll(group);
            Rejection rejection = rejected(headers.toArray(MessageHeader[]::new));
            assertThat(rejection.reason()).as("%s", group).isEqualTo(DeadLetterReason.INVALID_GROUP);
            assertThat(rejection.detail()).as("%s", group).contains("x-group");
        }
    }

    @Test
    void aRabbitMqStringGroupIsValid() {
        assertThat(validator.validate(message(text("x-delay", "10"), text("x-target", "kafka:out"), MessageHeader.amqp("x-group", "g-1"))))
                .isInstanceOf(ValidatedMessage.Accepted.class);
    }

    @Test
    void groupControlsNameTheirGroup() {
        assertThat(control(text("x-control", "cancel-group"), text("x-group", "order-42"))).isEqualTo(new ControlRequest.CancelGroup("order-42"));
        assertThat(control(text("x-control", "Reschedule-Group"), text("x-group", "order-42"), text("x-delay", "5000")))
                .isEqualTo(new ControlRequest.RescheduleGroup("order-42", new DueTime.AfterDelay(5000)));
    }

    @Test
    void aGroupControlWithoutAGroupOrDueTimeIsRejected() {
        Rejection noGroup = rejected(text("x-control", "cancel-group"), text("x-message-id", "m-1"));
        assertThat(noGroup.reason()).isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(noGroup.detail()).contains("x-group");
        assertThat(rejected(text("x-control", "reschedule-group"), text("x-group", "g")).reason()).isEqualTo(DeadLetterReason.MISSING_DELAY);
        assertThat(rejected(text("x-control", "cancel-group"), text("x-group", "g".repeat(300))).reason())
                .isEqualTo(DeadLetterReason.INVALID_GROUP);
    }

    private ControlRequest control(MessageHeader... headers) {
        ValidatedMessage validated = validator.validate(message(headers));
        assertThat(validated).isInstanceOf(ValidatedMessage.Control.class);
        return ((ValidatedMessage.Control) validated).request();
    }

    private Rejection rejected(MessageHeader... headers) {
        ValidatedMessage validated = validator.validate(message(headers));
        assertThat(validated).as(Arrays.toString(headers)).isInstanceOf(ValidatedMessage.Rejected.class);
        return ((ValidatedMessage.Rejected) validated).rejection();
    }

    private static InboundMessage message(MessageHeader... headers) {
        return new InboundMessage("kafka:delay.inbound/0@7", "delay.inbound", "delay.inbound-0-7", null, List.of(headers), Map.of(),
                "body".getBytes(StandardCharsets.UTF_8));
    }

    private static MessageHeader text(String name, String value) {
        return MessageHeader.text(name, value);
    }
}
