package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Control messages (x-control) through DelayRequestValidator: what is a valid cancel, reschedule or replace, and what is dead-lettered. */
class ControlMessageValidatorTest {

    private static final long MAX_DELAY_MS = 86_400_000;

    private final DelayRequestValidator validator = new DelayRequestValidator(new DueTimeParser(MAX_DELAY_MS),
            new TargetPolicy(List.of("kafka:*"), Set.of("kafka:delay.inbound"), Set.of("kafka")), Map.of(), 100);

    @Test
    void cancelNamesTheMessageToCancel() {
        ValidatedMessage validated = validator.validate(message(header("x-control", "cancel"), header("x-message-id", "order-42-timeout")));

        assertThat(validated).isEqualTo(new ValidatedMessage.Control(validated.message(), new ControlRequest.Cancel("order-42-timeout")));
    }

    @Test
    void actionIsCaseInsensitiveAndStripped() {
        assertThat(control(header("x-control", "  CANCEL "), header("x-message-id", "m-1"))).isEqualTo(new ControlRequest.Cancel("m-1"));
        assertThat(control(header("x-control", "Reschedule"), header("x-message-id", "m-1"), header("x-delay", "5")))
                .isEqualTo(new ControlRequest.Reschedule("m-1", new DueTime.AfterDelay(5)));
    }

    @Test
    void rescheduleTakesANewDelayOrDueTime() {
        assertThat(control(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", "PT1.5002S")))
                .isEqualTo(new ControlRequest.Reschedule("m-1", new DueTime.AfterDelay(1501)));
        assertThat(rejected(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", "1500.2")).reason())
                .isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(control(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-deliver-at", "2026-12-01T10:00:00Z")))
                .isEqualTo(new ControlRequest.Reschedule("m-1", new DueTime.At(1_796_119_200_000L)));
    }

    @Test
    void aControlIgnoresTargetBodyAndTheSizeLimit() {
        InboundMessage message = new InboundMessage("kafka:delay.inbound/0@7", "delay.inbound", "delay.inbound-0-7", null,
                List.of(header("x-control", "cancel"), header("x-message-id", "m-1"), header("x-target", "not a target")),
                Map.of(), new byte[1_000]);

        assertThat(validator.validate(message)).isInstanceOf(ValidatedMessage.Control.class);
    }

    @Test
    void anUnknownActionIsAnInvalidControl() {
        Rejection rejection = rejected(header("x-control", "pause"), header("x-message-id", "m-1"));

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(rejection.detail()).contains("'pause'").contains("cancel").contains("reschedule").contains("replace");
    }

    @Test
    void aControlWithoutMessageIdIsAnInvalidControl() {
        Rejection cancel = rejected(header("x-control", "cancel"));
        Rejection reschedule = rejected(header("x-control", "reschedule"), header("x-delay", "10"));

        assertThat(cancel.reason()).isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(cancel.detail()).contains("x-message-id");
        assertThat(reschedule.reason()).isEqualTo(DeadLetterReason.INVALID_CONTROL);
    }

    @Test
    void emptyOrUnreadableControlValuesAreInvalidControls() {
        assertThat(rejected(header("x-control", " "), header("x-message-id", "m-1")).reason()).isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(rejected(new MessageHeader("x-control", null), header("x-message-id", "m-1")).reason())
                .isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(rejected(new MessageHeader("x-control", new byte[] {(byte) 0xC3, 0x28}), header("x-message-id", "m-1")).reason())
                .isEqualTo(DeadLetterReason.INVALID_CONTROL);
    }

    @Test
    void aBadMessageIdOrDelayKeepsItsOwnReason() {
        assertThat(rejected(header("x-control", "cancel"), header("x-message-id", " ")).reason()).isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
        assertThat(rejected(header("x-control", "reschedule"), header("x-message-id", "m-1")).reason()).isEqualTo(DeadLetterReason.MISSING_DELAY);
        assertThat(rejected(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", "soon")).reason())
                .isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(rejected(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", "1"),
                header("x-deliver-at", "1")).reason()).isEqualTo(DeadLetterReason.CONFLICTING_DELAY);
        assertThat(rejected(header("x-control", "reschedule"), header("x-message-id", "m-1"), header("x-delay", Long.toString(MAX_DELAY_MS + 1)))
                .reason()).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
    }

    @Test
    void replaceCarriesTheReplacementBuiltLikeANewMessageWithoutTheBridgesHeaders() {
        InboundMessage message = new InboundMessage("kafka:delay.inbound/0@7", "delay.inbound", "delay.inbound-0-7", bytes("new key"),
                List.of(header("x-control", "Replace"), header("x-message-id", "m-1"), header("x-delay", "5"),
                        header("x-target", "kafka:orders.new"), header("trace", "t-2")), Map.of(), bytes("new body"));

        ValidatedMessage validated = validator.validate(message);

        Envelope envelope = new Envelope("m-1", "kafka:orders.new", "kafka:delay.inbound/0@7", bytes("new key"),
                List.of(header("trace", "t-2")), Map.of(), bytes("new body"));
        assertThat(validated).isEqualTo(new ValidatedMessage.Control(message,
                new ControlRequest.Replace(new ScheduleRequest("m-1", new DueTime.AfterDelay(5), envelope))));
    }

    @Test
    void aReplaceIsRefusedForWhatANewMessageIsRefusedFor() {
        assertThat(rejected(header("x-control", "replace"), header("x-delay", "5"), header("x-target", "kafka:out")).reason())
                .as("no id").isEqualTo(DeadLetterReason.INVALID_CONTROL);
        assertThat(rejected(header("x-control", "replace"), header("x-message-id", "m-1"), header("x-target", "kafka:out")).reason())
                .isEqualTo(DeadLetterReason.MISSING_DELAY);
        assertThat(rejected(header("x-control", "replace"), header("x-message-id", "m-1"), header("x-delay", "5")).reason())
                .isEqualTo(DeadLetterReason.MISSING_TARGET);
        assertThat(rejected(header("x-control", "replace"), header("x-message-id", "m-1"), header("x-delay", "5"),
                header("x-target", "kafka:delay.inbound")).reason()).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET);
        assertThat(rejected(header("x-control", "replace"), header("x-message-id", "m-1"), header("x-delay", Long.toString(MAX_DELAY_MS + 1)),
                header("x-target", "kafka:out")).reason()).isEqualTo(DeadLetterReason.DELAY_TOO_LONG);
        InboundMessage tooLarge = new InboundMessage("kafka:delay.inbound/0@7", "delay.inbound", "delay.inbound-0-7", null,
                List.of(header("x-control", "replace"), header("x-message-id", "m-1"), header("x-delay", "5"), header("x-target", "kafka:out")),
                Map.of(), new byte[1_000]);
        ValidatedMessage validated = validator.validate(tooLarge);
        assertThat(validated).isInstanceOf(ValidatedMessage.Rejected.class);
        assertThat(((ValidatedMessage.Rejected) validated).rejection().reason()).isEqualTo(DeadLetterReason.PAYLOAD_TOO_LARGE);
    }

    @Test
    void aControlIsFiledUnderItsOwnIdNotTheIdItNames() {
        InboundMessage control = message(header("x-control", "pause"), header("x-message-id", "order-42-timeout"));
        InboundMessage ordinary = message(header("x-delay", "1"), header("x-message-id", "order-42-timeout"));

        assertThat(control.idForRecords()).isEqualTo("delay.inbound-0-7");
        assertThat(ordinary.idForRecords()).isEqualTo("order-42-timeout");
    }

    private ControlRequest control(MessageHeader... headers) {
        ValidatedMessage validated = validator.validate(message(headers));
        assertThat(validated).isInstanceOf(ValidatedMessage.Control.class);
        return ((ValidatedMessage.Control) validated).request();
    }

    private Rejection rejected(MessageHeader... headers) {
        ValidatedMessage validated = validator.validate(message(headers));
        assertThat(validated).isInstanceOf(ValidatedMessage.Rejected.class);
        return ((ValidatedMessage.Rejected) validated).rejection();
    }

    private static InboundMessage message(MessageHeader... headers) {
        return new InboundMessage("kafka:delay.inbound/0@7", "delay.inbound", "delay.inbound-0-7", null, List.of(headers), Map.of(),
                "body".getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static MessageHeader header(String name, String value) {
        return MessageHeader.text(name, value);
    }
}
