package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code {routing-key}} in a target: replaced by the routing key a RabbitMQ message was published with, in {@code x-target}
 * and in a default target, before the target is checked; refused for a message without one (from Kafka).
 */
class RoutingKeyTargetTest {

    private static final String QUEUE = "orders.inbound";
    private static final String DELAYED_QUEUE = "redis-delay-bridge.delayed.orders.delayed";

    private final DelayRequestValidator validator = new DelayRequestValidator(
            new DueTimeParser(86_400_000),
            new TargetPolicy(List.of("rabbitmq:orders/order.*", "rabbitmq:audit/*"), Set.of("rabbitmq:orders.delayed/*", "rabbitmq:/" + QUEUE),
                    Set.of("kafka", "rabbitmq")),
            Map.of(DELAYED_QUEUE, "rabbitmq:orders/{routing-key}", QUEUE, "rabbitmq:audit/all"),
            1_000_000);

    @Test
    void theDefaultTargetTakesTheRoutingKeyTheMessageWasPublishedWith() {
        assertThat(target(fromRabbitMq(DELAYED_QUEUE, "order.created.eu", header("x-delay", "100")))).isEqualTo("rabbitmq:orders/order.created.eu");
        assertThat(target(fromRabbitMq(DELAYED_QUEUE, "order.#.odd *", header("x-delay", "100")))).isEqualTo("rabbitmq:orders/order.#.odd *");
    }

    @Test
    void xTargetTakesItToo() {
        assertThat(target(fromRabbitMq(QUEUE, "eu", header("x-delay", "100"), header("x-target", "rabbitmq:audit/order.{routing-key}.late"))))
                .isEqualTo("rabbitmq:audit/order.eu.late");
    }

    @Test
    void theAllowListAndTheLoopGuardJudgeTheResolvedTarget() {
        assertThat(rejection(fromRabbitMq(DELAYED_QUEUE, "invoice.paid", header("x-delay", "100"))))
                .satisfies(r -> assertThat(r.reason()).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET))
                .satisfies(r -> assertThat(r.detail()).contains("rabbitmq:orders/invoice.paid").contains("allow-list"));
        assertThat(rejection(fromRabbitMq(QUEUE, QUEUE, header("x-delay", "100"), header("x-target", "rabbitmq:/{routing-key}"))))
                .satisfies(r -> assertThat(r.reason()).isEqualTo(DeadLetterReason.FORBIDDEN_TARGET))
                .satisfies(r -> assertThat(r.detail()).contains("inbound channel"));
    }

    @Test
    void theResolvedTargetMustFollowTheTargetSyntax() {
        String longKey = "k".repeat(250);
        assertThat(rejection(fromRabbitMq(QUEUE, longKey, header("x-delay", "1"), header("x-target", "rabbitmq:audit/order.{routing-key}"))))
                .satisfies(r -> assertThat(r.reason()).isEqualTo(DeadLetterReason.INVALID_TARGET))
                .satisfies(r -> assertThat(r.detail()).contains("routing key longer than 255 bytes"));
        assertThat(rejection(fromRabbitMq(QUEUE, "audit", header("x-delay", "1"), header("x-target", "rabbitmq:{routing-key}/x"))))
                .as("only the routing key takes the placeholder")
                .satisfies(r -> assertThat(r.reason()).isEqualTo(DeadLetterReason.INVALID_TARGET));
    }

    @Test
    void aMessageFromKafkaHasNoRoutingKeyAndIsRefusedWithAReason() {
        InboundMessage fromKafka = new InboundMessage("kafka:orders.in/0@7", "orders.in", "orders.in-0-7", "order-42".getBytes(StandardCharsets.UTF_8),
                headers(header("x-delay", "100"), header("x-target", "rabbitmq:orders/{routing-key}")), Map.of(), new byte[] {1});

        Rejection rejection = rejection(fromKafka);

        assertThat(rejection.reason()).isEqualTo(DeadLetterReason.INVALID_TARGET);
        assertThat(rejection.detail()).isEqualTo("x-target 'rabbitmq:orders/{routing-key}' names {routing-key}, the routing key of a"
                + " message from RabbitMQ; this message has none (it came from kafka:orders.in/0@7)");
    }

    @Test
    void aTargetWithoutThePlaceholderIsAsItWas() {
        assertThat(target(fromRabbitMq(QUEUE, "order.created.eu", header("x-delay", "100")))).isEqualTo("rabbitmq:audit/all");
    }

    private String target(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).as("accepted: %s", validated).isInstanceOf(ValidatedMessage.Accepted.class);
        return ((ValidatedMessage.Accepted) validated).request().envelope().target();
    }

    private Rejection rejection(InboundMessage message) {
        ValidatedMessage validated = validator.validate(message);
        assertThat(validated).isInstanceOf(ValidatedMessage.Rejected.class);
        return ((ValidatedMessage.Rejected) validated).rejection();
    }

    private static InboundMessage fromRabbitMq(String queue, String routingKey, MessageHeader... headers) {
        return new InboundMessage("rabbitmq:" + queue, queue, "rabbitmq-1", null, headers(headers), Map.of(), new byte[] {1}, routingKey);
    }

    private static List<MessageHeader> headers(MessageHeader... headers) {
        return new ArrayList<>(List.of(headers));
    }

    private static MessageHeader header(String name, String value) {
        return MessageHeader.text(name, value);
    }
}
