package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Pending messages live in Redis, not in the bridge: they survive a stop and start of the bridge. */
class RestartTest {

    private static final String NAME = "restart";
    private static final int MESSAGES = 500;

    @Test
    void messagesPendingWhenTheBridgeStopsAreDeliveredAfterItStartsAgain() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        String inbound = NAME + ".inbound";
        String target = NAME + ".target";
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
            kafka.createTopics(2, inbound);
            kafka.createTopics(1, target);

            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                for (int i = 0; i < MESSAGES; i++) {
                    kafka.send(inbound, null, bytes("m" + i),
                            Map.of("x-delay", Integer.toString(4000 + i), "x-target", "kafka:" + target));
                }
                kafka.flush();
                assertThat(RedisInspector.awaitValue(redis::pending, MESSAGES, Duration.ofSeconds(20)))
                        .as("messages stored before the stop").isEqualTo(MESSAGES);
            }
            assertThat(redis.pending()).as("still pending after the stop").isEqualTo(MESSAGES);
            assertThat(redis.inFlight()).as("nothing left leased by the stopped instance").isZero();
            assertThat(kafka.consume(target, 1, Duration.ofMillis(500))).as("nothing delivered early").isEmpty();

            try (BridgeInstance restarted = BridgeInstance.start(settings)) {
                List<Received> received = kafka.consume(target, MESSAGES, Duration.ofSeconds(60), Duration.ofSeconds(1));

                Set<String> bodies = received.stream().map(r -> new String(r.record().value(), StandardCharsets.UTF_8))
                        .collect(Collectors.toSet());
                assertThat(bodies).hasSize(MESSAGES);
                assertThat(received).as("no duplicates from offsets committed before the stop").hasSize(MESSAGES);
                assertThat(redis.pending() + redis.inFlight()).isZero();
            }
        }
    }
}
