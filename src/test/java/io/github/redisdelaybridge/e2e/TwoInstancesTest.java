package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Two bridge instances (two Camel contexts) on one Redis: every message is delivered exactly once. */
class TwoInstancesTest {

    private static final String NAME = "two-instances";
    private static final int MESSAGES = 1000;

    @Test
    void thousandMessagesAreEachDeliveredExactlyOnce() {
        LocalRedis.deleteKeys("test-" + NAME);
        String inbound = NAME + ".inbound";
        String target = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(4, inbound);
            kafka.createTopics(1, target);
            Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
            settings.put("bridge.redis.slots", "4");
            settings.put("bridge.dispatch.batch-size", "40");
            try (BridgeInstance first = BridgeInstance.start(withId(settings, "first"));
                 BridgeInstance second = BridgeInstance.start(withId(settings, "second"))) {
                Random random = new Random(7);
                for (int i = 0; i < MESSAGES; i++) {
                    kafka.send(inbound, bytes("k" + i), bytes("m" + i),
                            Map.of("x-delay", Integer.toString(random.nextInt(2000)), "x-target", "kafka:" + target,
                                    "x-message-id", "m" + i));
                }
                kafka.flush();

                List<Received> received = kafka.consume(target, MESSAGES, Duration.ofSeconds(60), Duration.ofSeconds(2));

                Map<String, Long> copies = received.stream()
                        .collect(Collectors.groupingBy(r -> new String(r.record().value(), StandardCharsets.UTF_8), Collectors.counting()));
                Set<String> missing = new TreeSet<>();
                for (int i = 0; i < MESSAGES; i++) {
                    if (!copies.containsKey("m" + i)) {
                        missing.add("m" + i);
                    }
                }
                Map<String, Long> duplicated = copies.entrySet().stream().filter(e -> e.getValue() > 1)
                        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
                assertThat(missing).as("missing").isEmpty();
                assertThat(duplicated).as("delivered more than once").isEmpty();
                assertThat(received).hasSize(MESSAGES);
            }
        }
    }

    private static Map<String, String> withId(Map<String, String> settings, String id) {
        Map<String, String> copy = new java.util.LinkedHashMap<>(settings);
        copy.put("bridge.instance-id", id);
        // two bridges in one JVM, each with an HTTP port of its own: a taken port stops a bridge's start
        String httpPort = Integer.toString(io.github.redisdelaybridge.testkit.FreePorts.next());
        copy.put("camel.server.port", httpPort);
        copy.put("camel.management.port", httpPort);
        return copy;
    }
}
