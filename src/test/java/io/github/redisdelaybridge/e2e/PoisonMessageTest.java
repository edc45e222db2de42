package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every kind of bad input lands on the dead-letter topic with its reason; good messages around it are delivered. */
class PoisonMessageTest {

    private static final String NAME = "poison";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET, DLQ);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.delay.max-ms", "86400000");
        settings.put("bridge.payload.max-bytes", "2048");
        settings.put("bridge.targets.allowed", "kafka:" + NAME + ".*");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void eachPoisonKindIsDeadLetteredWithItsReasonAndGoodMessagesStillArrive() {
        String target = "kafka:" + TARGET;
        Map<String, Map<String, String>> poison = new LinkedHashMap<>();
        poison.put("missing-delay", headers("x-target", target));
        poison.put("conflicting-delay", headers("x-delay", "100", "x-deliver-at", "1700000000000", "x-target", target));
        poison.put("invalid-delay", headers("x-delay", "soon", "x-target", target));
        poison.put("invalid-delay/negative", headers("x-delay", "-5", "x-target", target));
        poison.put("invalid-delay/deliver-at", headers("x-deliver-at", "tomorrow", "x-target", target));
        poison.put("delay-too-long", headers("x-delay", "86400001", "x-target", target));
        poison.put("delay-too-long/deliver-at", headers("x-deliver-at", Instant.now().plus(Duration.ofDays(2)).toString(), "x-target", target));
        poison.put("invalid-target", headers("x-delay", "10", "x-target", "kafka:bad topic!"));
        poison.put("invalid-target/broker", headers("x-delay", "10", "x-target", "sqs:queue"));
        poison.put("missing-target", headers("x-delay", "10"));
        poison.put("forbidden-target", headers("x-delay", "10", "x-target", "kafka:payments.internal"));
        poison.put("forbidden-target/loop", headers("x-delay", "10", "x-target", "kafka:" + INBOUND));
        poison.put("invalid-message-id", headers("x-delay", "10", "x-target", target, "x-message-id", " "));

        int good = 0;
        kafka.send(INBOUND, null, bytes("good-" + good++), headers("x-delay", "50", "x-target", target));
        for (Map.Entry<String, Map<String, String>> entry : poison.entrySet()) {
            kafka.send(INBOUND, bytes("key"), bytes(entry.getKey()), entry.getValue());
            kafka.send(INBOUND, null, bytes("good-" + good++), headers("x-delay", "50", "x-target", target));
        }
        kafka.send(INBOUND, null, new byte[4096], headers("x-delay", "10", "x-target", target, "x-message-id", "too-big"));
        kafka.flush();

        List<Received> deadLetters = kafka.consume(DLQ, poison.size() + 1, Duration.ofSeconds(30));
        List<Received> delivered = kafka.consume(TARGET, good, Duration.ofSeconds(30), Duration.ofMillis(500));

        Map<String, String> reasonByBody = new HashMap<>();
        for (Received r : deadLetters) {
            String body = r.record().value().length == 4096 ? "payload-too-large" : new String(r.record().value(), StandardCharsets.UTF_8);
            reasonByBody.put(body, r.header("x-dead-letter-reason"));
            assertThat(r.header("x-dead-letter-detail")).as("detail of %s", body).isNotBlank();
            assertThat(r.header("x-dead-letter-origin")).startsWith("kafka:" + INBOUND + "/0@");
        }
        Map<String, String> expected = poison.keySet().stream()
                .collect(Collectors.toMap(k -> k, k -> k.contains("/") ? k.substring(0, k.indexOf('/')) : k));
        expected.put("payload-too-large", "payload-too-large");
        assertThat(reasonByBody).isEqualTo(expected);
        assertThat(delivered).extracting(r -> new String(r.record().value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, good).mapToObj(i -> "good-" + i).toList());
    }

    @Test
    void aDeadLetterKeepsTheProducersKeyHeadersAndBody() {
        kafka.send(INBOUND, bytes("the-key"), bytes("the-body"),
                headers("x-delay", "later", "x-target", "kafka:" + TARGET, "x-message-id", "keep-me", "trace", "abc"));
        kafka.flush();

        List<Received> deadLetters = kafka.consume(DLQ, 100, Duration.ofSeconds(5)).stream()
                .filter(r -> "keep-me".equals(r.header("x-message-id"))).toList();

        assertThat(deadLetters).hasSize(1);
        Received dead = deadLetters.get(0);
        assertThat(dead.record().key()).isEqualTo(bytes("the-key"));
        assertThat(dead.record().value()).isEqualTo(bytes("the-body"));
        assertThat(dead.header("trace")).isEqualTo("abc");
        assertThat(dead.header("x-delay")).isEqualTo("later");
        assertThat(dead.header("x-dead-letter-reason")).isEqualTo("invalid-delay");
        assertThat(dead.header("x-dead-letter-detail")).contains("later");
    }

    private static Map<String, String> headers(String... pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.put(pairs[i], pairs[i + 1]);
        }
        return headers;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
