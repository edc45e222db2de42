package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TcpRelay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The target broker (RabbitMQ, reached through a relay that the test cuts, so the shared broker stays up for everyone
 * else) is down for long: its target is parked after its first failures, every waiting message is parked, and probes keep
 * going out, with backoff shortened to at most 200 ms, and failing. Waiting is bounded by time (24 h by default), not by a
 * count of attempts, so nothing is dead-lettered or lost: when the broker is back, every message is delivered, byte for byte.
 */
class TargetOutageRetryTest {

    private static final String NAME = "target-outage";
    private static final int MESSAGES = 40;

    @Test
    void aTargetDownForLongIsParkedAndLosesAndDeadLettersNothing() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        String targetQueue = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient();
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1);
             TcpRelay relay = new TcpRelay(RabbitMqTestClient.HOST, RabbitMqTestClient.PORT)) {
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
            settings.put("bridge.rabbitmq.port", Integer.toString(relay.port()));
            settings.put("bridge.retry.base-ms", "100");
            settings.put("bridge.retry.max-ms", "200");
            settings.put("bridge.parking.first-probe-ms", "100");
            settings.put("bridge.parking.max-probe-ms", "200");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String deadLetters = settings.get("bridge.dead-letter.kafka-topic");
            kafka.createTopics(1, inbound, deadLetters);
            rabbit.declareQueue(targetQueue);
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                relay.cut();
                Map<String, byte[]> sent = new LinkedHashMap<>();
                Random random = new Random(13);
                for (int i = 0; i < MESSAGES; i++) {
                    byte[] body = new byte[1 + random.nextInt(2_000)];
                    random.nextBytes(body);
                    String id = "down-" + i;
                    sent.put(id, body);
                    kafka.send(inbound, null, body, Map.of("x-delay", "300", "x-target", "rabbitmq:/" + targetQueue, "x-message-id", id));
                }
                kafka.flush();
                assertThat(RedisInspector.awaitValue(() -> redis.pending() + redis.inFlight(), MESSAGES, Duration.ofSeconds(30)))
                        .as("stored").isEqualTo(MESSAGES);

                String target = "rabbitmq:/" + targetQueue;
                assertThat(awaitParked(api, target, MESSAGES - 1, Duration.ofSeconds(60))).as("parked while the broker is down, one probing")
                        .isGreaterThanOrEqualTo(MESSAGES - 1);
                Set<Long> probeTimes = new HashSet<>();
                for (int i = 0; i < 30; i++) {
                    probeTimes.add(targetView(api, target).get("nextProbeAt").asLong());
                    Thread.sleep(100);
                }
                assertThat(probeTimes).as("probes every 200 ms at most, each failing: the target stays parked").hasSizeGreaterThanOrEqualTo(5);
                assertThat(targetView(api, target).get("state").asText()).isEqualTo("parked");
                assertThat(kafka.consume(deadLetters, 1, Duration.ofMillis(500))).as("dead letters while the broker is down").isEmpty();
                relay.restore();

                List<RabbitMqTestClient.Received> received = rabbit.consume(targetQueue, MESSAGES, Duration.ofSeconds(60), Duration.ofSeconds(1));
                List<String> deliveredIds = new ArrayList<>();
                for (RabbitMqTestClient.Received message : received) {
                    String id = message.headerText("x-message-id");
                    deliveredIds.add(id);
                    assertThat(message.body()).as("body of %s", id).isEqualTo(sent.get(id));
                }
                List<String> deadIds = kafka.consume(deadLetters, 1, Duration.ofSeconds(1)).stream().map(KafkaTestClient.Received::messageId).toList();
                DeliveryReport report = DeliveryReport.of("TargetOutageRetryTest (parked, probed while down)",
                        sent.keySet(), deliveredIds, deadIds);

                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(redis.pending() + redis.inFlight()).as("nothing left in Redis").isZero();
            }
        }
    }

    /** Waits until the target has at least {@code parked} messages parked (admin API); returns the last count seen. */
    private static long awaitParked(AdminApiClient api, String target, int parked, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        long seen = -1;
        do {
            JsonNode view = targetView(api, target);
            seen = view == null ? -1 : view.get("parked").asLong();
            if (seen >= parked) {
                return seen;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        return seen;
    }

    /** The target's entry in GET /api/targets, or null. */
    private static JsonNode targetView(AdminApiClient api, String target) {
        for (JsonNode view : api.get("/api/targets").json().get("targets")) {
            if (view.get("target").asText().equals(target)) {
                return view;
            }
        }
        return null;
    }
}
