package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A pending message whose payload disappears from Redis (eviction, a manual delete) is dead-lettered when it falls
 * due, as payload-missing: logged, counted, on the dead-letter topic, never skipped silently.
 */
class PayloadMissingDeadLetterTest {

    private static final String NAME = "payload-missing";

    @Test
    void orphanedMemberIsDeadLetteredAsPayloadMissing() throws Exception {
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        String prefix = settings.get("bridge.redis.key-prefix");
        LocalRedis.deleteKeys(prefix);
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String dlq = settings.get("bridge.dead-letter.kafka-topic");
        String target = NAME + ".target";
        RedisClient client = RedisClient.create(LocalRedis.URI);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             StatefulRedisConnection<String, String> redis = client.connect();
             LogCapture logs = new LogCapture()) {
            kafka.createTopics(1, inbound, target, dlq);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(inbound, null, "lost".getBytes(), Map.of("x-delay", "6000", "x-target", "kafka:" + target, "x-message-id", "orphan-1"));
                String payloads = prefix + ":{" + prefix + ":0}:payloads";
                long deadline = System.currentTimeMillis() + 20_000;
                while (!redis.sync().hexists(payloads, "orphan-1") && System.currentTimeMillis() < deadline) {
                    Thread.sleep(50);
                }
                assertThat(redis.sync().hdel(payloads, "orphan-1")).as("payload deleted before it fell due").isEqualTo(1);

                List<Received> deadLetters = kafka.consume(dlq, 1, Duration.ofSeconds(30));
                assertThat(deadLetters).singleElement().satisfies(d -> {
                    assertThat(d.messageId()).isEqualTo("orphan-1");
                    assertThat(d.header("x-dead-letter-reason")).isEqualTo("payload-missing");
                    assertThat(d.header("x-dead-letter-detail")).contains("payload is missing from Redis");
                });
                assertThat(logs.messagesContaining("dead-lettering orphan-1: payload-missing")).isNotEmpty();
                assertThat(bridge.httpGet("/observe/metrics")).contains("bridge_messages_dead_lettered_total{reason=\"payload-missing\"} 1.0");
            }
        } finally {
            client.shutdown();
            LocalRedis.deleteKeys(prefix);
        }
    }
}
