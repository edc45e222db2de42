package io.github.redisdelaybridge.fault;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter channel is not there (its topic does not exist yet, and the bridge never creates topics). A dead
 * letter too large for its channel is sent without its body (KafkaDeadLetterSizeTest); one the channel cannot take at
 * all must wait for it. Neither kind of dead letter may be lost:
 * <ul>
 *   <li>a message rejected at ingest keeps its batch unacknowledged upstream: the inbound offset is not
 *       committed past it, and the batch is retried;</li>
 *   <li>a message the target refuses for good (dead-lettered at its first attempt) stays in Redis and is dead-lettered
 *       again later.</li>
 * </ul>
 * Once the topic exists, both dead letters arrive whole, with their reasons, and the offset moves on.
 */
class DeadLetterChannelOutageTest {

    private static final String NAME = "dlq-outage";
    private static final String INBOUND = NAME + ".inbound";
    private static final String SMALL = NAME + ".small-messages-only";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";
    private static final int BIG = 8_192;

    private static KafkaTestClient kafka;
    private static Admin admin;
    private static BridgeInstance bridge;
    private static AdminApiClient api;

    @BeforeAll
    static void startBridge() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET);
        admin = Admin.create(Map.of("bootstrap.servers", EmbeddedKafka.bootstrapServers()));
        admin.createTopics(List.of(new NewTopic(SMALL, 1, (short) 1).configs(Map.of("max.message.bytes", "1024")))).all().get();
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.retry.base-ms", "200");
        settings.put("bridge.retry.max-ms", "500");
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        admin.close();
        kafka.close();
    }

    @Test
    void deadLettersWaitForTheChannelAndNothingIsAcknowledgedOrDeletedBeforeIt() throws Exception {
        long poisonOffset;
        try (LogCapture log = new LogCapture()) {
            kafka.sendAndWait(INBOUND, null, new byte[BIG], Map.of("x-delay", "0", "x-target", "kafka:" + SMALL,
                    "x-message-id", "undeliverable"));
            awaitLog(log, "could not dead-letter undeliverable", 30_000);

            poisonOffset = kafka.sendAndWait(INBOUND, null, new byte[BIG], Map.of("x-delay", "soon", "x-target", "kafka:" + TARGET,
                    "x-message-id", "poison")).offset();
            awaitLog(log, "could not record 1 dead letters", 30_000);
            Thread.sleep(1_000);

            assertThat(committedOffset()).as("inbound offset while the poison's dead letter has nowhere to go").isLessThanOrEqualTo(poisonOffset);
            // not consumed (the test broker would create the topic for a consumer): looked up, the bridge has not created it
            assertThat(kafka.topicExists(DLQ)).as("the dead-letter topic, which the bridge never creates").isFalse();
            assertThat(stateOf("undeliverable")).as("the undeliverable message is still in Redis").isIn("pending", "in-flight");
        }

        admin.createTopics(List.of(new NewTopic(DLQ, 1, (short) 1))).all().get();
        kafka.sendAndWait(INBOUND, null, bytes("after"), Map.of("x-delay", "0", "x-target", "kafka:" + TARGET, "x-message-id", "after"));

        List<Received> deadLetters = kafka.consume(DLQ, 2, Duration.ofSeconds(30));
        assertThat(deadLetters).extracting(r -> r.header("x-message-id") + "=" + r.header("x-dead-letter-reason"))
                .containsExactlyInAnyOrder("undeliverable=publish-failed", "poison=invalid-delay");
        assertThat(deadLetters).allSatisfy(r -> assertThat(r.record().value()).hasSize(BIG));
        assertThat(kafka.consume(TARGET, 1, Duration.ofSeconds(30))).extracting(Received::messageId).containsExactly("after");
        long deadline = System.currentTimeMillis() + 30_000;
        while (committedOffset() <= poisonOffset && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertThat(committedOffset()).as("inbound offset once the channel exists").isGreaterThan(poisonOffset + 1);
        assertThat(stateOf("undeliverable")).as("the undeliverable message once the channel exists").isEqualTo("dead");
    }

    private static String stateOf(String id) {
        AdminApiClient.Response response = api.get("/api/messages/" + id);
        assertThat(response.status()).as("GET /api/messages/%s answered %s", id, response.text()).isEqualTo(200);
        return response.json().get("state").asText();
    }

    private static long committedOffset() throws Exception {
        TopicPartition partition = new TopicPartition(INBOUND, 0);
        OffsetAndMetadata committed = admin.listConsumerGroupOffsets(NAME + "-bridge").partitionsToOffsetAndMetadata()
                .get(10, TimeUnit.SECONDS).get(partition);
        return committed == null ? -1 : committed.offset();
    }

    private static void awaitLog(LogCapture log, String text, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (log.messagesContaining(text).isEmpty()) {
            assertThat(System.currentTimeMillis()).as("log line containing '%s'", text).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
