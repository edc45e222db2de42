package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Test;

/**
 * A producer's id never names an id the bridge generates: an {@code x-message-id} (or an AMQP {@code message-id}) in the
 * form of a generated Kafka or RabbitMQ id is refused as {@code invalid-message-id}, on a message and on a control message,
 * and the refused message is filed under its own default id. Ids that merely look alike are accepted.
 */
class UserIdsApartTest {

    private static final String INBOUND = "delay.inbound";
    private static final String KAFKA_GENERATED = INBOUND + "@" + Uuid.randomUuid() + "-0-42";
    private static final String RABBITMQ_GENERATED = "rabbitmq-" + UUID.randomUUID();

    private final DelayRequestValidator validator = new DelayRequestValidator(new DueTimeParser(86_400_000),
            new TargetPolicy(List.of("kafka:orders.*"), Set.of("kafka:" + INBOUND), Set.of("kafka")), Map.of(), 1_000);

    @Test
    void anIdInTheGeneratedFormIsRefusedOnAMessage() {
        for (String id : List.of(KAFKA_GENERATED, "other.topic@AAAAAAAAAAAAAAAAAAAAAA-12-0", RABBITMQ_GENERATED)) {
            Rejection rejection = rejected(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", id)));
            assertThat(rejection.reason()).as(id).isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
            assertThat(rejection.detail()).as(id).contains("generated");
        }
    }

    @Test
    void anIdInTheGeneratedFormIsRefusedOnACancelAndAReschedule() {
        for (String id : List.of(KAFKA_GENERATED, RABBITMQ_GENERATED)) {
            assertThat(rejected(message(header("x-control", "cancel"), header("x-message-id", id))).reason()).as(id)
                    .isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
            assertThat(rejected(message(header("x-control", "reschedule"), header("x-message-id", id), header("x-delay", "5"))).reason())
                    .as(id).isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
        }
    }

    @Test
    void anAmqpMessageIdInTheGeneratedFormIsRefused() {
        InboundMessage message = new InboundMessage("rabbitmq:q", "q", RABBITMQ_GENERATED, null,
                List.of(header("x-delay", "5"), header("x-target", "kafka:orders.a")), Map.of("message-id", RABBITMQ_GENERATED), body());
        assertThat(rejected(message).reason()).isEqualTo(DeadLetterReason.INVALID_MESSAGE_ID);
    }

    @Test
    void aRefusedMessageIsFiledUnderItsOwnDefaultId() {
        InboundMessage message = message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", KAFKA_GENERATED));
        assertThat(message.idForRecords()).isEqualTo(message.defaultMessageId());
    }

    @Test
    void generatedDefaultIdsAndLookAlikesAreAccepted() {
        InboundMessage generated = new InboundMessage("kafka:" + INBOUND + "/0@42", INBOUND, KAFKA_GENERATED, null,
                List.of(header("x-delay", "5"), header("x-target", "kafka:orders.a")), Map.of(), body());
        assertThat(accepted(generated)).isEqualTo(KAFKA_GENERATED);
        InboundMessage rabbit = new InboundMessage("rabbitmq:q", "q", RABBITMQ_GENERATED, null,
                List.of(header("x-delay", "5"), header("x-target", "kafka:orders.a")), Map.of(), body());
        assertThat(accepted(rabbit)).isEqualTo(RABBITMQ_GENERATED);
        for (String id : List.of("order-42-7", INBOUND + "-0-42", "rabbitmq-orders-1", "alice@example.com-1-2",
                "rabbitmq-" + UUID.randomUUID().toString().toUpperCase(), INBOUND + "@short-0-42")) {
            assertThat(accepted(message(header("x-delay", "5"), header("x-target", "kafka:orders.a"), header("x-message-id", id))))
                    .isEqualTo(id);
        }
    }

    private String accepted(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).as("validation of %s", message.headers()).isInstanceOf(ValidatedMessage.Accepted.class);
        return ((ValidatedMessage.Accepted) validated).request().messageId();
    }

    private Rejection rejected(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).as("validation of %s", message.headers()).isInstanceOf(ValidatedMessage.Rejected.class);
        return ((ValidatedMessage.Rejected) validated).rejection();
    }

    private static InboundMessage message(MessageHeader... headers) {
        return new InboundMessage("kafka:" + INBOUND + "/0@43", INBOUND, INBOUND + "@" + Uuid.randomUuid() + "-0-43", null,
                Arrays.asList(headers), Map.of(), body());
    }

    private static byte[] body() {
        return "body".getBytes(StandardCharsets.UTF_8);
    }

    private static MessageHeader header(String name, String value) {
        return MessageHeader.text(name, value);
    }
}
