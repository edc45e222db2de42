package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * bridge.log.format=json, as an operator sets it (BRIDGE_LOG_FORMAT in the environment of the production entry point): every
 * line of the bridge's log is one JSON object; a dead letter and a retry are structured lines with the message id and target
 * in the MDC and the reason or error as fields; the payloads are in no line.
 */
class JsonLogFormatTest {

    private static final String NAME = "json-log";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PAYLOAD_MARKER = "payload-marker-7f3a91";

    @Test
    void formatsAreTextOrJson() {
        assertThat(LogFormat.parse(null)).isEqualTo(LogFormat.TEXT);
        assertThat(LogFormat.parse(" JSON ")).isEqualTo(LogFormat.JSON);
        assertThatThrownBy(() -> LogFormat.parse("xml")).hasMessage("setting bridge.log.format must be text or json, got 'xml'");
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void everyLineIsJsonAndDeadLettersAndRetriesCarryTheMessage() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.log.format", "json");
        // the child gets its HTTP port as a -D option (BridgeProcess)
        settings.remove("camel.server.port");
        settings.remove("camel.management.port");
        settings.put("bridge.retry.base-ms", "100");
        settings.put("bridge.retry.max-ms", "200");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, inbound, settings.get("bridge.dead-letter.kafka-topic"));
            try (ChildProcess bridge = BridgeProcess.start(NAME, settings)) {
                byte[] body = (PAYLOAD_MARKER + " body").getBytes(StandardCharsets.UTF_8);
                kafka.send(inbound, null, body, Map.of("x-delay", "soon", "x-target", "kafka:" + NAME + ".out", "x-message-id", "bad-delay-1"));
                // an exchange that does not exist: retried, not dead-lettered
                kafka.send(inbound, null, body, Map.of("x-delay", "0", "x-target", "rabbitmq:" + NAME + ".no-such-exchange/rk",
                        "x-message-id", "retried-1"));
                kafka.flush();

                List<JsonNode> lines = awaitLines(bridge, lines1 -> find(lines1, "dead-letter", "bad-delay-1").isPresent()
                        && find(lines1, "retry", "retried-1").isPresent(), Duration.ofSeconds(60));

                JsonNode deadLetter = find(lines, "dead-letter", "bad-delay-1").orElseThrow();
                assertThat(deadLetter.path("level").asText()).isEqualTo("WARN");
                assertThat(kv(deadLetter, "reason")).isEqualTo("invalid-delay");
                assertThat(deadLetter.path("formattedMessage").asText()).contains("dead-lettering bad-delay-1");

                JsonNode retry = find(lines, "retry", "retried-1").orElseThrow();
                assertThat(retry.path("mdc").path("target").asText()).isEqualTo("rabbitmq:" + NAME + ".no-such-exchange/rk");
                assertThat(kv(retry, "attempt")).isEqualTo("1");
                assertThat(kv(retry, "error")).containsIgnoringCase("exchange");

                assertThat(bridge.logText()).as("payloads in the log").doesNotContain(PAYLOAD_MARKER);
            }
        }
    }

    /** Waits until the bridge's log satisfies {@code done}; fails on any line of the bridge that is not JSON. */
    private static List<JsonNode> awaitLines(ChildProcess bridge, java.util.function.Predicate<List<JsonNode>> done, Duration timeout)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        List<JsonNode> lines;
        do {
            lines = jsonLines(bridge.logText());
            if (done.test(lines)) {
                return lines;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        throw new AssertionError("no dead-letter and retry lines in:\n" + bridge.logText());
    }

    private static List<JsonNode> jsonLines(String log) {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : log.split("\n")) {
            if (line.isBlank() || isFromTheJvm(line)) {
                continue;
            }
            try {
                lines.add(JSON.readTree(line));
            } catch (Exception e) {
                throw new AssertionError("a log line that is not JSON: " + line);
            }
        }
        return lines;
    }

    /** The JVM itself (not the bridge's log) may warn on standard error, e.g. about a deprecated option. */
    private static boolean isFromTheJvm(String line) {
        return line.startsWith("WARNING: ") || line.startsWith("OpenJDK ");
    }

    private static Optional<JsonNode> find(List<JsonNode> lines, String event, String messageId) {
        return lines.stream().filter(l -> event.equals(kv(l, "event")) && messageId.equals(l.path("mdc").path("messageId").asText())).findFirst();
    }

    /** A key-value pair of the line (Logback writes them as a list of one-entry objects). */
    private static String kv(JsonNode line, String key) {
        for (JsonNode pair : line.path("kvpList")) {
            if (pair.has(key)) {
                return pair.get(key).asText();
            }
        }
        return null;
    }
}
