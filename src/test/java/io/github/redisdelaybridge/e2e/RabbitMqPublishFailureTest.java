package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisInspector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A RabbitMQ target that cannot take a message is a failed publish, never counted as delivered: a return as unroutable
 * (no queue bound for its routing key) is permanent and dead-lettered at its first attempt; a missing exchange or a full
 * queue that makes the broker nack is retried until the message has been failing for longer than
 * {@code bridge.retry.max-age-ms} (short here), then dead-lettered with the age and the broker's reason. Good messages
 * published in the same rounds still arrive. Dead letters of RabbitMQ-origin messages go to an exchange here
 * ({@code rabbitmq:<exchange>/<key>}).
 */
class RabbitMqPublishFailureTest {

    private static final String NAME = "rmq-publish-failure";
    private static final String RABBIT_INBOUND = NAME + ".inbound";
    private static final String KAFKA_INBOUND = NAME + ".inbound";
    private static final String EXCHANGE = NAME + ".exchange";
    private static final String GOOD_QUEUE = NAME + ".good";
    private static final String FULL_QUEUE = NAME + ".full";
    private static final String DEAD_LETTER_EXCHANGE = NAME + ".dlx";
    private static final String DEAD_LETTER_QUEUE = NAME + ".dead-letters";
    private static final long MAX_AGE_MS = 1_500;

    private static KafkaTestClient kafka;
    private static RabbitMqTestClient rabbit;
    private static RedisInspector redis;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, KAFKA_INBOUND, NAME + ".dlq");
        rabbit = new RabbitMqTestClient();
        rabbit.declareQueue(GOOD_QUEUE);
        rabbit.declareExchange(EXCHANGE, "direct");
        rabbit.bind(GOOD_QUEUE, EXCHANGE, "good");
        rabbit.declareQueue(FULL_QUEUE, Map.of("x-max-length", 1, "x-overflow", "reject-publish"));
        rabbit.publishToQueue(FULL_QUEUE, Map.of(), bytes("fills the queue"));
        rabbit.declareQueue(DEAD_LETTER_QUEUE);
        rabbit.declareExchange(DEAD_LETTER_EXCHANGE, "direct");
        rabbit.bind(DEAD_LETTER_QUEUE, DEAD_LETTER_EXCHANGE, "dead");
        redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.retry.base-ms", "100");
        settings.put("bridge.retry.max-ms", "200");
        settings.put("bridge.retry.max-age-ms", Long.toString(MAX_AGE_MS));
        settings.put("bridge.rabbitmq.dead-letter-channel", "rabbitmq:" + DEAD_LETTER_EXCHANGE + "/dead");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        rabbit.deleteQueue(RABBIT_INBOUND);
        rabbit.close();
        redis.close();
        kafka.close();
    }

    @Test
    void unroutableIsDeadLetteredAtOnceAndMissingExchangeOrNackOnceTooOldAndGoodMessagesArrive() throws Exception {
        Map<String, String> badTargets = new LinkedHashMap<>();
        badTargets.put("unbound-key", "rabbitmq:" + EXCHANGE + "/nobody-listens");
        badTargets.put("no-such-queue", "rabbitmq:/" + NAME + ".no-such-queue");
        badTargets.put("missing-exchange", "rabbitmq:" + NAME + ".missing/any");
        badTargets.put("full-queue", "rabbitmq:/" + FULL_QUEUE);
        int good = 0;
        for (Map.Entry<String, String> bad : badTargets.entrySet()) {
            rabbit.publishToQueue(RABBIT_INBOUND, headers(bad.getKey(), bad.getValue()), bytes(bad.getKey()));
            rabbit.publishToQueue(RABBIT_INBOUND, headers("good-" + good, "rabbitmq:" + EXCHANGE + "/good"), bytes("good-" + good++));
        }

        long sentAt = System.currentTimeMillis();
        List<Received> deadLetters = rabbit.consume(DEAD_LETTER_QUEUE, badTargets.size(), Duration.ofSeconds(30), Duration.ofMillis(500));
        List<Received> delivered = rabbit.consume(GOOD_QUEUE, good, Duration.ofSeconds(20), Duration.ofMillis(500));

        assertThat(delivered).extracting(r -> new String(r.body(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("good-0", "good-1", "good-2", "good-3");
        Map<String, Received> byId = new LinkedHashMap<>();
        deadLetters.forEach(d -> byId.put(d.headerText("x-message-id"), d));
        assertThat(byId.keySet()).containsExactlyInAnyOrderElementsOf(badTargets.keySet());
        assertThat(deadLetters).hasSize(badTargets.size());
        for (Map.Entry<String, String> bad : badTargets.entrySet()) {
            Received dead = byId.get(bad.getKey());
            assertThat(dead.body()).isEqualTo(bytes(bad.getKey()));
            assertThat(dead.headerText("x-dead-letter-reason")).isEqualTo("publish-failed");
            assertThat(dead.headerText("x-target")).isEqualTo(bad.getValue());
        }
        for (String unroutable : List.of("unbound-key", "no-such-queue")) {
            Received dead = byId.get(unroutable);
            assertThat(dead.headerText("x-dead-letter-attempts")).as("%s: permanent, not retried", unroutable).isEqualTo("1");
            assertThat(dead.headerText("x-dead-letter-detail")).as(unroutable).contains("failed permanently").contains("NO_ROUTE (312)");
            assertThat(dead.receivedAtMs() - sentAt).as("%s: no retries before it", unroutable).isLessThan(MAX_AGE_MS + 5_000);
        }
        for (String retried : List.of("missing-exchange", "full-queue")) {
            Received dead = byId.get(retried);
            assertThat(Integer.parseInt(dead.headerText("x-dead-letter-attempts"))).as("%s: retried until too old", retried).isGreaterThan(1);
            String detail = dead.headerText("x-dead-letter-detail");
            if (detail.contains("the target parked since")) {
                // its target failed three times in a row and was parked: the message then waited parked, not retried
                assertThat(detail).as(retried).contains("waited longer than bridge.retry.max-age-ms (" + MAX_AGE_MS + " ms)");
            } else {
                assertThat(detail).as(retried).containsPattern("has been failing for [0-9]+ ms \\(since [0-9TZ:.-]+, [0-9]+ attempts\\), longer"
                        + " than bridge.retry.max-age-ms \\(" + MAX_AGE_MS + " ms\\)");
                assertThat(failingForMs(dead)).as(retried).isGreaterThan(MAX_AGE_MS);
            }
            assertThat(dead.receivedAtMs() - sentAt).as("%s: retried for the maximum age first", retried).isGreaterThanOrEqualTo(MAX_AGE_MS);
        }
        assertThat(byId.get("missing-exchange").headerText("x-dead-letter-detail")).contains("NOT_FOUND").contains("404");
        assertThat(byId.get("full-queue").headerText("x-dead-letter-detail")).contains("nacked");
        assertThat(rabbit.readyAndUnacked(FULL_QUEUE)).as("only the message that filled it").containsExactly(1, 0);
        assertThat(redis.pending() + redis.inFlight()).as("nothing left in Redis").isZero();
    }

    @Test
    void aKafkaOriginMessageForAnUnroutableTargetIsDeadLetteredOnTheKafkaTopic() {
        kafka.sendAndWait(KAFKA_INBOUND, bytes("k"), bytes("from kafka"),
                Map.of("x-delay", "10", "x-target", "rabbitmq:" + EXCHANGE + "/nobody-listens", "x-message-id", "kafka-unroutable"));

        List<KafkaTestClient.Received> deadLetters = kafka.consume(NAME + ".dlq", 1, Duration.ofSeconds(30));

        assertThat(deadLetters).hasSize(1);
        KafkaTestClient.Received dead = deadLetters.get(0);
        assertThat(dead.header("x-message-id")).isEqualTo("kafka-unroutable");
        assertThat(dead.header("x-dead-letter-reason")).isEqualTo("publish-failed");
        assertThat(dead.header("x-dead-letter-detail")).contains("NO_ROUTE").contains("failed permanently");
        assertThat(dead.header("x-dead-letter-attempts")).as("permanent: dead-lettered at the first attempt").isEqualTo("1");
        assertThat(dead.record().key()).isEqualTo(bytes("k"));
    }

    private static long failingForMs(Received dead) {
        java.util.regex.Matcher age = java.util.regex.Pattern.compile("failing for ([0-9]+) ms").matcher(dead.headerText("x-dead-letter-detail"));
        assertThat(age.find()).isTrue();
        return Long.parseLong(age.group(1));
    }

    private static Map<String, Object> headers(String id, String target) {
        return Map.of("x-delay", 50, "x-target", target, "x-message-id", id);
    }
}
