package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An x-message-id reused while its message is pending: the same payload sent again (a producer's retry: another offset,
 * another delay) is a counted duplicate, not stored and not dead-lettered; a different payload under the same id is neither
 * dropped nor allowed to replace the pending message: it is dead-lettered as {@code duplicate-id}, naming the id and the
 * pending message's due time, logged at WARN and counted. The pending message is delivered once, as first sent.
 */
class DuplicateIdTest {

    private static final String NAME = "duplicate-id";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void theSamePayloadIsACopyAndAnotherPayloadIsDeadLetteredAsDuplicateId() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             LogCapture log = new LogCapture()) {
            kafka.createTopics(1, INBOUND, TARGET, DLQ);
            try (BridgeInstance bridge = BridgeInstance.start(BridgeInstance.settings(NAME, LocalRedis.URI))) {
                Map<String, String> first = Map.of("x-delay", "6000", "x-target", "kafka:" + TARGET, "x-message-id", "order-42", "h", "1");
                long sentAt = System.currentTimeMillis();
                kafka.sendAndWait(INBOUND, bytes("k"), bytes("pay 10"), first);
                // a producer's retry: same target, key, headers and body; another offset and another delay
                kafka.sendAndWait(INBOUND, bytes("k"), bytes("pay 10"),
                        Map.of("x-delay", "1000", "x-target", "kafka:" + TARGET, "x-message-id", "order-42", "h", "1"));
                // the same id for something else
                kafka.sendAndWait(INBOUND, bytes("k"), bytes("pay 99"),
                        Map.of("x-delay", "1000", "x-target", "kafka:" + TARGET, "x-message-id", "order-42", "h", "1"));

                List<Received> dead = kafka.consume(DLQ, 1, Duration.ofSeconds(20), Duration.ofSeconds(1));
                assertThat(dead).hasSize(1);
                Received conflict = dead.get(0);
                assertThat(conflict.header("x-dead-letter-reason")).isEqualTo("duplicate-id");
                assertThat(conflict.header("x-dead-letter-detail")).contains("x-message-id 'order-42'").contains("different payload")
                        .containsPattern("pending, due at 20[0-9-]+T[0-9:.]+Z \\([0-9]+\\)");
                assertThat(conflict.header("x-message-id")).isEqualTo("order-42");
                assertThat(conflict.header("x-dead-letter-origin")).isEqualTo("kafka:" + INBOUND + "/0@2");
                assertThat(conflict.record().value()).isEqualTo(bytes("pay 99"));

                List<Received> delivered = kafka.consume(TARGET, 1, Duration.ofSeconds(30), Duration.ofSeconds(2));
                assertThat(delivered).extracting(r -> new String(r.record().value())).as("once, the first payload").containsExactly("pay 10");
                assertThat(Long.parseLong(delivered.get(0).header("x-delay-due-at")) - sentAt)
                        .as("at the first message's due time (6 s), not the copies' (1 s)").isGreaterThan(5_000);

                String metrics = bridge.httpGet("/observe/metrics");
                assertThat(metrics).contains("bridge_messages_duplicate_id_total 1.0").contains("bridge_messages_duplicate_total{reason=\"pending\"} 1.0")
                        .contains("bridge_messages_dead_lettered_total{reason=\"duplicate-id\"} 1.0");
                assertThat(log.messagesAtLeast(Level.WARN, "io.github.redisdelaybridge.inbound.MessageScheduler"))
                        .anyMatch(line -> line.contains("duplicate-id") && line.contains("order-42"));
            }
        }
    }
}
