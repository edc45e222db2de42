package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A target that refuses a message for good (a topic whose size limit it exceeds: RecordTooLargeException) is a permanent
 * failure: the bridge dead-letters it as publish-failed at its first attempt, with the broker's reason, instead of retrying
 * it until the maximum age; other messages are delivered on time meanwhile.
 */
class PublishRetryTest {

    private static final String NAME = "retry";
    private static final String INBOUND = NAME + ".inbound";
    private static final String SMALL = NAME + ".small-messages-only";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET, DLQ);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", EmbeddedKafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(SMALL, 1, (short) 1).configs(Map.of("max.message.bytes", "1024")))).all().get();
        }
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.retry.base-ms", "300");
        settings.put("bridge.retry.max-ms", "1000");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void aRecordTheTopicRefusesForGoodIsDeadLetteredAtItsFirstAttemptWhileOthersFlow() {
        kafka.sendAndWait(INBOUND, bytes("big-key"), new byte[8_192],
                Map.of("x-delay", "0", "x-target", "kafka:" + SMALL, "x-message-id", "too-big-for-target", "trace", "t-1"));
        long sentAt = System.currentTimeMillis();
        for (int i = 0; i < 20; i++) {
            kafka.send(INBOUND, null, bytes("ok-" + i), Map.of("x-delay", Integer.toString(100 * i), "x-target", "kafka:" + TARGET));
        }
        kafka.flush();

        List<Received> delivered = kafka.consume(TARGET, 20, Duration.ofSeconds(30));
        List<Received> deadLetters = kafka.consume(DLQ, 1, Duration.ofSeconds(30));

        assertThat(delivered).hasSize(20);
        for (Received r : delivered) {
            long dueAt = Long.parseLong(r.header("x-delay-due-at"));
            assertThat(r.receivedAtMs() - dueAt).as("lateness of %s while a retry is pending", r.header("x-message-id"))
                    .isLessThan(3_000);
        }
        assertThat(deadLetters).hasSize(1);
        Received dead = deadLetters.get(0);
        assertThat(dead.header("x-dead-letter-reason")).isEqualTo("publish-failed");
        assertThat(dead.header("x-dead-letter-attempts")).as("dead-lettered at the first attempt, not retried").isEqualTo("1");
        assertThat(dead.header("x-dead-letter-detail")).contains("kafka:" + SMALL).contains("failed permanently").contains("RecordTooLarge");
        assertThat(dead.header("x-target")).isEqualTo("kafka:" + SMALL);
        assertThat(dead.header("x-message-id")).isEqualTo("too-big-for-target");
        assertThat(dead.header("trace")).isEqualTo("t-1");
        assertThat(dead.record().key()).isEqualTo(bytes("big-key"));
        assertThat(dead.record().value()).hasSize(8_192);
        assertThat(dead.receivedAtMs() - sentAt).as("no backoff: dead-lettered at once").isLessThan(10_000);
    }
}
