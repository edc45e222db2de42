package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Dead letters of RabbitMQ-origin messages can go to a Kafka topic, mapped as for a Kafka target. */
class RabbitMqDeadLetterToKafkaTest {

    private static final String NAME = "rmq-dead-letters-to-kafka";
    private static final String INBOUND = NAME + ".inbound";
    private static final String DEAD_LETTERS = NAME + ".rabbitmq-dlq";

    @Test
    void aPoisonRabbitMqMessageLandsOnTheKafkaTopicWithItsHeadersAsTextAndItsPropertiesAsAmqpHeaders() {
        LocalRedis.deleteKeys("test-" + NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient()) {
            kafka.createTopics(1, DEAD_LETTERS);
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
            settings.put("bridge.rabbitmq.dead-letter-channel", "kafka:" + DEAD_LETTERS);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                rabbit.publish("", INBOUND, new AMQP.BasicProperties.Builder()
                        .headers(Map.of("x-delay", 1.5e12, "x-target", "rabbitmq:/anywhere", "attempt", 3))
                        .contentType("application/json").correlationId("c-42").build(), bytes("{\"order\":42}"));

                List<KafkaTestClient.Received> deadLetters = kafka.consume(DEAD_LETTERS, 1, Duration.ofSeconds(20));

                assertThat(deadLetters).hasSize(1);
                KafkaTestClient.Received dead = deadLetters.get(0);
                assertThat(dead.record().value()).isEqualTo(bytes("{\"order\":42}"));
                assertThat(dead.record().key()).isNull();
                assertThat(dead.header("x-dead-letter-reason")).isEqualTo("delay-too-long");
                assertThat(dead.header("x-dead-letter-origin")).isEqualTo("rabbitmq:" + INBOUND);
                assertThat(dead.header("x-delay")).as("a double, as text").isEqualTo("1500000000000");
                assertThat(dead.header("attempt")).isEqualTo("3");
                assertThat(dead.header("amqp-content-type")).isEqualTo("application/json");
                assertThat(dead.header("amqp-correlation-id")).isEqualTo("c-42");
                assertThat(dead.header("x-message-id")).startsWith("rabbitmq-");
                assertThat(rabbit.readyAndUnacked(INBOUND)).as("acked after the dead letter").containsExactly(0, 0);
            } finally {
                rabbit.deleteQueue(INBOUND);
            }
        }
    }
}
