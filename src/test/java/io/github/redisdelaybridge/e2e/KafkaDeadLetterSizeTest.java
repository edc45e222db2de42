package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Dead letters always fit a Kafka dead-letter topic with a small {@code max.message.bytes}: larger than the bridge's limit
 * they go without their body (then without key and headers), saying so and where the whole message is; when the topic's
 * own limit is lower than the bridge's setting, the broker's refusal makes the bridge send the smallest form; a dead letter
 * the topic refuses even then is kept in Redis only. In no case is the inbound partition held: the message after it is
 * delivered, and Redis holds one record per dead letter.
 */
class KafkaDeadLetterSizeTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void deadLettersLargerThanTheSettingGoWithoutBodyTheWholeKeptInRedis() throws Exception {
        String name = "dl-size-fit";
        try (Fixture f = new Fixture(name, 30_000, Map.of("bridge.dead-letter.kafka-max-bytes", "30000", "bridge.payload.max-bytes", "100000"))) {
            byte[] body = new byte[50_000];
            body[0] = (byte) 0xFF; // not UTF-8: the admin API answers it in base64
            f.kafka.send(f.inbound, bytes("key-1"), body, Map.of("x-delay", "soon", "x-message-id", "big-invalid", "trace", "t-1"));
            f.kafka.send(f.inbound, null, new byte[200_000], Map.of("x-delay", "0", "x-target", "kafka:" + f.target,
                    "x-message-id", "too-large"));
            f.kafka.send(f.inbound, null, new byte[40_000], Map.of("x-delay", "0", "x-target", "kafka:" + f.target, "x-message-id", "fits-target"));
            f.kafka.send(f.inbound, null, bytes("after"), Map.of("x-delay", "0", "x-target", "kafka:" + f.target, "x-message-id", "after"));
            f.kafka.flush();

            assertThat(f.kafka.consume(f.target, 2, Duration.ofSeconds(30))).extracting(Received::messageId)
                    .as("the partition is not held by the dead letters before").containsExactlyInAnyOrder("fits-target", "after");
            Map<String, Received> dead = byId(f.kafka.consume(f.dlq, 2, Duration.ofSeconds(30), Duration.ofSeconds(2)));
            assertThat(dead).containsOnlyKeys("big-invalid", "too-large");

            Received invalid = dead.get("big-invalid");
            assertThat(invalid.header("x-dead-letter-reason")).isEqualTo("invalid-delay");
            assertThat(invalid.header("x-dead-letter-dropped")).isEqualTo("body");
            assertThat(invalid.header("x-dead-letter-dropped-detail")).contains("bridge.dead-letter.kafka-max-bytes (30000 bytes)")
                    .contains("body 50000").contains("GET /api/dead-letters/{id}?body=true");
            assertThat(invalid.header("trace")).as("headers kept").isEqualTo("t-1");
            assertThat(invalid.record().key()).isEqualTo(bytes("key-1"));
            assertThat(invalid.record().value()).isEmpty();
            JsonNode stored = f.api.get("/api/dead-letters/big-invalid?body=true").json();
            assertThat(Base64.getDecoder().decode(stored.path("bodyBase64").asText())).as("the whole body kept in Redis").isEqualTo(body);

            Received tooLarge = dead.get("too-large");
            assertThat(tooLarge.header("x-dead-letter-reason")).isEqualTo("payload-too-large");
            assertThat(tooLarge.header("x-dead-letter-dropped")).isEqualTo("body");
            assertThat(tooLarge.header("x-dead-letter-dropped-detail")).contains("does not keep the whole message")
                    .contains("kafka:" + f.inbound + "/0@1");
            JsonNode storedTooLarge = f.api.get("/api/dead-letters/too-large").json();
            assertThat(storedTooLarge.path("size").asLong()).as("Redis keeps it without the body").isLessThan(10_000);
            assertThat(f.api.post("/api/dead-letters/too-large/replay", "{}").status()).as("not replayable without its body").isEqualTo(409);
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aTopicRefusingTheSizeGetsTheSmallestFormAndOneItRefusesEvenThenHoldsNothingUp() throws Exception {
        String name = "dl-size-refused";
        // the bridge's setting (1 MB, the default) is above the topic's 1,000 bytes: only the broker's refusal tells
        String longId = "refused-always-" + "i".repeat(497);
        // Both dead letters below come from one inbound batch, each alone under the topic's limit in its smallest form or
        // not, two together over it: a producer that batched them would have the pair refused again and again until its
        // delivery timeout (it splits a refused batch by batch.size), holding the partition. The dead-letter producer sends
        // each record alone, whatever bridge.kafka.producer.batch.size is.
        try (Fixture f = new Fixture(name, 1_000, Map.of())) {
            f.kafka.send(f.inbound, bytes("key-2"), new byte[10_000], Map.of("x-delay", "soon", "x-message-id", "refused-once"));
            // the smallest form of this one (about 750 bytes, plus its 512-byte id) is still above the topic's limit
            byte[] refusedBody = new byte[10_000];
            refusedBody[0] = 's';
            f.kafka.send(f.inbound, null, refusedBody, Map.of("x-delay", "soon", "x-message-id", longId));
            f.kafka.send(f.inbound, null, bytes("after"), Map.of("x-delay", "0", "x-target", "kafka:" + f.target, "x-message-id", "after"));
            f.kafka.flush();

            assertThat(f.kafka.consume(f.target, 1, Duration.ofSeconds(30))).extracting(Received::messageId)
                    .as("the partition goes on past a dead letter its topic refuses").containsExactly("after");
            // generous: each refused form is retried with backoff before the next, smaller one (slow on a loaded machine)
            List<Received> dead = f.kafka.consume(f.dlq, 1, Duration.ofSeconds(60), Duration.ofSeconds(2));
            assertThat(dead).extracting(Received::messageId).containsExactly("refused-once");
            Received bare = dead.get(0);
            assertThat(bare.header("x-dead-letter-reason")).isEqualTo("invalid-delay");
            assertThat(bare.header("x-dead-letter-dropped")).isEqualTo("body,key,headers");
            assertThat(bare.header("x-dead-letter-dropped-detail")).contains("the broker refused").contains("GET /api/dead-letters/");
            assertThat(bare.record().key()).isNull();

            JsonNode refused = f.api.get("/api/dead-letters/" + longId + "?body=true").json();
            assertThat(refused.path("reason").asText()).isEqualTo("invalid-delay");
            assertThat(refused.path("size").asLong()).as("kept whole in Redis").isGreaterThan(10_000);
            assertThat(f.api.get("/api/dead-letters").json().path("deadLetters")).as("one record each, not one per try").hasSize(2);
            assertThat(f.bridge.httpGet("/observe/metrics"))
                    .contains("bridge_dead_letters_not_sent_total{reason=\"invalid-delay\"} 1.0")
                    .contains("bridge_dead_letters_trimmed_total{dropped=\"body,key,headers\",reason=\"invalid-delay\"}");
        }
    }

    private static Map<String, Received> byId(List<Received> received) {
        Map<String, Received> byId = new HashMap<>();
        received.forEach(r -> assertThat(byId.put(r.messageId(), r)).as("one dead letter per message").isNull());
        return byId;
    }

    /** A bridge whose Kafka dead-letter topic accepts at most {@code topicMaxBytes} per record. */
    private static final class Fixture implements AutoCloseable {
        final String inbound;
        final String target;
        final String dlq;
        final KafkaTestClient kafka;
        final BridgeInstance bridge;
        final AdminApiClient api;

        Fixture(String name, int topicMaxBytes, Map<String, String> overrides) throws Exception {
            inbound = name + ".inbound";
            target = name + ".target";
            dlq = name + ".dlq";
            LocalRedis.deleteKeys("test-" + name);
            kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
            kafka.createTopics(1, inbound, target);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", EmbeddedKafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(dlq, 1, (short) 1).configs(Map.of("max.message.bytes", Integer.toString(topicMaxBytes)))))
                        .all().get();
            }
            Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
            settings.putAll(overrides);
            bridge = BridgeInstance.start(settings);
            api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
        }

        @Override
        public void close() {
            bridge.close();
            kafka.close();
        }
    }
}
