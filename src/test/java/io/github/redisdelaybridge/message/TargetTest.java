package io.github.redisdelaybridge.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TargetTest {

    @Test
    void parsesKafkaTopic() {
        assertThat(Target.parse("kafka:orders.expired-v2_x")).isEqualTo(new Target.Kafka("orders.expired-v2_x"));
    }

    @Test
    void parsesKafkaTopicOfTheMaximumLength() {
        String topic = "t".repeat(249);

        assertThat(Target.parse("kafka:" + topic)).isEqualTo(new Target.Kafka(topic));
    }

    @Test
    void parsesRabbitMqExchangeAndRoutingKey() {
        assertThat(Target.parse("rabbitmq:billing.ex/invoice.due")).isEqualTo(new Target.RabbitMq("billing.ex", "invoice.due"));
    }

    @Test
    void parsesRabbitMqDefaultExchangeWithQueueName() {
        assertThat(Target.parse("rabbitmq:/reminders")).isEqualTo(new Target.RabbitMq("", "reminders"));
    }

    @Test
    void rabbitMqRoutingKeyMayBeEmptyOrContainSlashes() {
        assertThat(Target.parse("rabbitmq:fanout.ex/")).isEqualTo(new Target.RabbitMq("fanout.ex", ""));
        assertThat(Target.parse("rabbitmq:ex/a/b/c")).isEqualTo(new Target.RabbitMq("ex", "a/b/c"));
    }

    @Test
    void rabbitMqRoutingKeyIsLimitedTo255BytesNotCharacters() {
        String fits = "é".repeat(127) + "x"; // 255 bytes
        String tooLong = "é".repeat(128);   // 256 bytes in 128 characters

        assertThat(Target.parse("rabbitmq:ex/" + fits)).isEqualTo(new Target.RabbitMq("ex", fits));
        assertThatThrownBy(() -> Target.parse("rabbitmq:ex/" + tooLong)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("255 bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka:orders", "kafka:a", "rabbitmq:ex/rk", "rabbitmq:/queue", "rabbitmq:ex/", "rabbitmq:amq.topic/a.b.#"})
    void uriIsTheCanonicalTextItWasParsedFrom(String text) {
        assertThat(Target.parse(text).uri()).isEqualTo(text);
    }

    @ParameterizedTest
    @ValueSource(strings = {"kafka:", "kafka:.", "kafka:..", "kafka:bad topic", "kafka:a/b", "kafka:orders!", "kafka:ü",
            "kafka: orders"})
    void rejectsIllegalKafkaTopics(String text) {
        assertThatThrownBy(() -> Target.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(text);
    }

    @Test
    void rejectsKafkaTopicLongerThan249Characters() {
        assertThatThrownBy(() -> Target.parse("kafka:" + "t".repeat(250))).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rabbitmq:", "rabbitmq:exchange-only", "rabbitmq:/", "rabbitmq:bad ex/rk", "rabbitmq:ex#/rk"})
    void rejectsIllegalRabbitMqTargets(String text) {
        assertThatThrownBy(() -> Target.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(text);
    }

    @Test
    void rejectsRabbitMqExchangeLongerThan255Characters() {
        assertThatThrownBy(() -> Target.parse("rabbitmq:" + "e".repeat(256) + "/rk")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRefusedTargetIsQuotedOnlyByItsStart() {
        for (String text : List.of("kafka:" + "a".repeat(100_000) + "!", "rabbitmq:" + "e!".repeat(50_000) + "/rk",
                "rabbitmq:ex/" + "k".repeat(100_000), "rabbitmq:" + "e".repeat(100_000), "sqs:" + "q".repeat(100_000))) {
            assertThatThrownBy(() -> Target.parse(text)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(text.substring(0, 20)).hasMessageContaining("...")
                    .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(300));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "orders", "Kafka:orders", "KAFKA:orders", "amqp:ex/rk", " kafka:orders", "kafka//orders"})
    void rejectsUnknownBrokers(String text) {
        assertThatThrownBy(() -> Target.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names no known broker");
    }
}
