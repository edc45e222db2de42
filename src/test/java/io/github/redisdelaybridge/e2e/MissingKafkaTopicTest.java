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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Kafka target topic that does not exist (the embedded broker creates topics on demand, as Kafka does by default): the
 * bridge neither creates it by naming it nor blocks on it for {@code max.block.ms} per message. Its target is parked after
 * its first failures and probed (a topic created meanwhile gets every message), and its messages are dead-lettered as
 * {@code publish-failed} once they and its parking are older than {@code bridge.retry.max-age-ms}, naming the missing
 * topic; messages to other topics keep their rate and their due time.
 */
class MissingKafkaTopicTest {

    private static final String NAME = "missing-topic";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";
    private static final String NEVER = NAME + ".never-created";
    private static final String LATER = NAME + ".created-later";
    private static final int FLOWING = 300;
    private static final int PER_MISSING_TOPIC = 20;
    private static final long MAX_AGE_MS = 20_000;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void missingTopicsAreRetriedThenDeadLetteredNeverCreatedWhileOtherTopicsFlow() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, INBOUND, TARGET, DLQ);
            Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
            settings.put("bridge.retry.base-ms", "200");
            settings.put("bridge.retry.max-ms", "1000");
            settings.put("bridge.retry.max-age-ms", Long.toString(MAX_AGE_MS));
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                long sentAt = System.currentTimeMillis();
                for (int i = 0; i < PER_MISSING_TOPIC; i++) {
                    kafka.send(INBOUND, null, bytes("never-" + i), Map.of("x-delay", "0", "x-target", "kafka:" + NEVER,
                            "x-message-id", "never-" + i));
                    kafka.send(INBOUND, null, bytes("later-" + i), Map.of("x-delay", "0", "x-target", "kafka:" + LATER,
                            "x-message-id", "later-" + i));
                }
                // 300 messages due over 4 s, interleaved with the ones above in the same partition and the same claim rounds
                for (int i = 0; i < FLOWING; i++) {
                    kafka.send(INBOUND, null, bytes("ok-" + i), Map.of("x-delay", Integer.toString(13 * i), "x-target", "kafka:" + TARGET,
                            "x-message-id", "ok-" + i));
                }
                kafka.flush();

                List<Received> delivered = kafka.consume(TARGET, FLOWING, Duration.ofSeconds(60));
                assertThat(delivered).hasSize(FLOWING);
                for (Received r : delivered) {
                    // with a blocking lookup each of the 40 messages to missing topics would cost max.block.ms (5 s)
                    assertThat(r.receivedAtMs() - Long.parseLong(r.header("x-delay-due-at")))
                            .as("lateness of %s next to messages for missing topics", r.messageId()).isLessThan(3_000);
                }
                assertThat(kafka.topicExists(NEVER)).as("the bridge created no topic by naming it").isFalse();
                assertThat(kafka.topicExists(LATER)).isFalse();

                // a topic an operator creates while its messages wait gets them, none dead-lettered
                kafka.createTopics(1, LATER);
                List<Received> late = kafka.consume(LATER, PER_MISSING_TOPIC, Duration.ofSeconds(30));
                assertThat(late).extracting(Received::messageId).hasSize(PER_MISSING_TOPIC).doesNotHaveDuplicates();

                List<Received> deadLetters = kafka.consume(DLQ, PER_MISSING_TOPIC, Duration.ofSeconds(60), Duration.ofSeconds(3));
                assertThat(deadLetters).extracting(Received::messageId).hasSize(PER_MISSING_TOPIC).allMatch(id -> id.startsWith("never-"));
                for (Received dead : deadLetters) {
                    assertThat(dead.header("x-dead-letter-reason")).isEqualTo("publish-failed");
                    assertThat(dead.header("x-dead-letter-detail")).contains("kafka:" + NEVER).contains("bridge.retry.max-age-ms")
                            .contains("topic " + NEVER + " does not exist");
                    assertThat(dead.header("x-target")).isEqualTo("kafka:" + NEVER);
                    assertThat(dead.receivedAtMs() - sentAt).as("retried for the maximum age first").isGreaterThanOrEqualTo(MAX_AGE_MS);
                    assertThat(dead.header("x-dead-letter-detail")).as("waited parked, not retried one by one").contains("parked since");
                }
                assertThat(kafka.topicExists(NEVER)).as("still not created after every retry").isFalse();
            }
        }
    }
}
