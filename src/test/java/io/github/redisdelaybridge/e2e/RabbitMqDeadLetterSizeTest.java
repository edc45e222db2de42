package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dead letters of RabbitMQ-origin messages on the real broker. One larger than the broker's {@code max_message_size} (set
 * low by the test, and restored) closes the publishing channel with {@code PRECONDITION_FAILED}: the bridge sends it again
 * in its smallest form, and the delivery is acked once. One the dead-letter channel refuses for good (an exchange with no
 * queue bound: returned as unroutable) is kept in Redis only and the delivery acked: no nack/requeue loop, and one record,
 * not one per redelivery (the message has no id of its own, so each redelivery would get a new one).
 */
class RabbitMqDeadLetterSizeTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aDeadLetterAboveTheBrokersMaximumGoesInItsSmallestForm() throws Exception {
        String name = "rmq-dl-size";
        LocalRedis.deleteKeys("test-" + name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient()) {
            kafka.createTopics(1, name + ".inbound", name + ".dlq");
            rabbit.declareQueue(name + ".warm-up");
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(name, LocalRedis.URI), name);
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
            long previousMax = maxMessageSize();
            BridgeInstance bridge;
            try {
                // RabbitMQ reads max_message_size when a channel opens: low only while the bridge opens its publishing channel
                setMaxMessageSize(20_000);
                bridge = BridgeInstance.start(settings);
                rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", 0, "x-target", "rabbitmq:/" + name + ".warm-up"), bytes("warm-up"));
                assertThat(rabbit.consume(name + ".warm-up", 1, Duration.ofSeconds(30))).hasSize(1);
            } finally {
                setMaxMessageSize(previousMax);
            }
            try (BridgeInstance running = bridge) {
                byte[] body = new byte[50_000];
                rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", "soon", "x-message-id", "too-big", "trace", "t-1"), body);

                List<Received> dead = rabbit.consume(name + ".dlq", 1, Duration.ofSeconds(30), Duration.ofSeconds(2));
                assertThat(dead).hasSize(1);
                Received bare = dead.get(0);
                assertThat(bare.headerText("x-message-id")).isEqualTo("too-big");
                assertThat(bare.headerText("x-dead-letter-reason")).isEqualTo("invalid-delay");
                assertThat(bare.headerText("x-dead-letter-dropped")).isEqualTo("body,key,headers");
                assertThat(bare.headerText("x-dead-letter-dropped-detail")).contains("the broker refused").contains("GET /api/dead-letters/");
                assertThat(bare.body()).isEmpty();
                assertThat(rabbit.readyAndUnackedTotal(name + ".inbound")).as("acked once, not requeued").isZero();
                JsonNode stored = api.get("/api/dead-letters/too-big").json();
                assertThat(stored.path("size").asLong()).as("the whole message kept in Redis").isGreaterThan(50_000);
                assertThat(running.httpGet("/observe/metrics"))
                        .contains("bridge_dead_letters_trimmed_total{dropped=\"body,key,headers\",reason=\"invalid-delay\"} 1.0");
            } finally {
                rabbit.deleteQueue(name + ".inbound");
                rabbit.deleteQueue(name + ".dlq");
                rabbit.deleteQueue(name + ".warm-up");
            }
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aDeadLetterTheChannelRefusesForGoodIsKeptInRedisOnceAndTheDeliveryAcked() throws Exception {
        String name = "rmq-dl-refused";
        String exchange = name + ".unbound-exchange";
        LocalRedis.deleteKeys("test-" + name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient()) {
            kafka.createTopics(1, name + ".inbound", name + ".dlq");
            rabbit.declareExchange(exchange, "direct");
            rabbit.declareQueue(name + ".target");
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(name, LocalRedis.URI), name);
            settings.put("bridge.rabbitmq.dead-letter-channel", "rabbitmq:" + exchange + "/nobody-listens");
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                // no message-id: the bridge names it rabbitmq-<uuid>, new on every redelivery
                rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", "soon"), bytes("refused everywhere"));
                rabbit.publishToQueue(name + ".inbound", Map.of("x-delay", 0, "x-target", "rabbitmq:/" + name + ".target"), bytes("after"));

                assertThat(rabbit.consume(name + ".target", 1, Duration.ofSeconds(30))).as("the queue goes on").hasSize(1);
                Thread.sleep(3_000); // a nack/requeue loop would go on meanwhile, storing a record per redelivery
                assertThat(rabbit.readyAndUnackedTotal(name + ".inbound")).as("acked, not requeued").isZero();
                JsonNode listed = api.get("/api/dead-letters").json().path("deadLetters");
                assertThat(listed).as("one record, not one per redelivery").hasSize(1);
                assertThat(listed.get(0).path("reason").asText()).isEqualTo("invalid-delay");
                assertThat(bridge.httpGet("/observe/metrics")).contains("bridge_dead_letters_not_sent_total{reason=\"invalid-delay\"} 1.0");
            } finally {
                rabbit.deleteQueue(name + ".inbound");
                rabbit.deleteQueue(name + ".dlq");
                rabbit.deleteQueue(name + ".target");
                rabbit.deleteExchange(exchange);
            }
        }
    }

    private static long maxMessageSize() {
        Matcher value = Pattern.compile("\\{ok,([0-9]+)}").matcher(
                RabbitMqTestClient.rabbitmqctl("eval", "application:get_env(rabbit, max_message_size)."));
        return value.find() ? Long.parseLong(value.group(1)) : 134_217_728;
    }

    private static void setMaxMessageSize(long bytes) {
        RabbitMqTestClient.rabbitmqctl("eval", "application:set_env(rabbit, max_message_size, " + bytes + ").");
    }
}
