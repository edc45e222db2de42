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
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Parked and paused targets end to end through Kafka, Redis and the bridge: a target whose topic is missing is parked after
 * its first failures, its backlog waits parked (counted in /api/targets, /api/stats and the gauges) while another target flows,
 * and once its topic exists a probe gets through and every parked message follows, once each, in due order. A paused target's
 * messages are parked, not delivered nor dead-lettered, until it is resumed.
 */
class ParkedTargetTest {

    private static final String NAME = "parked-target";
    private static final String INBOUND = NAME + ".inbound";
    private static final String HEALTHY = NAME + ".healthy";
    private static final String LATER = NAME + ".created-later";
    private static final String PAUSED = NAME + ".paused";
    private static final String DLQ = NAME + ".dlq";
    private static final int BACKLOG = 300;

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;
    private static AdminApiClient api;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, HEALTHY, PAUSED, DLQ);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.retry.base-ms", "200");
        settings.put("bridge.retry.max-ms", "1000");
        settings.put("bridge.parking.first-probe-ms", "300");
        settings.put("bridge.parking.max-probe-ms", "1000");
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void aDeadTargetsBacklogWaitsParkedWhileOthersFlowThenFollowsItsProbeInDueOrder() throws Exception {
        // the topic is consumed only once it exists: a consumer subscribed to it would have the broker create it
        try (TargetCollector collector = new TargetCollector(kafka, HEALTHY, DLQ)) {
            List<String> backlog = new ArrayList<>();
            for (int i = 0; i < BACKLOG; i++) {
                backlog.add("later-" + i);
                kafka.send(INBOUND, null, bytes("later " + i), message("later-" + i, LATER, 5 * i));
            }
            kafka.flush();
            awaitCondition(() -> parkedOf("kafka:" + LATER) >= BACKLOG - 3, "the backlog parked");
            JsonNode target = targetView("kafka:" + LATER);
            assertThat(target.get("state").asText()).isEqualTo("parked");
            assertThat(api.get("/api/stats").json().at("/counts/parked").asLong()).isGreaterThanOrEqualTo(BACKLOG - 3);
            awaitCondition(() -> api.get("/observe/metrics").text().matches("(?s).*bridge_messages_parked \\d{3}.*"), "the gauge counts them");
            assertThat(api.get("/observe/metrics").text()).contains("bridge_targets_parking{state=\"parked\"} 1.0");

            List<String> flowing = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                flowing.add("healthy-" + i);
                kafka.send(INBOUND, null, bytes("healthy " + i), message("healthy-" + i, HEALTHY, 0));
            }
            kafka.flush();
            Map<String, Long> healthyArrivals = collector.awaitArrivals(flowing, Duration.ofSeconds(20));
            assertThat(healthyArrivals).as("the healthy target flows beside the parked one").hasSize(50);

            kafka.createTopics(1, LATER);
            List<Received> delivered;
            try (TargetCollector late = new TargetCollector(kafka, LATER)) {
                assertThat(late.awaitArrivals(backlog, Duration.ofSeconds(60))).as("every parked message delivered once its topic exists")
                        .hasSize(BACKLOG);
                Thread.sleep(1_000);
                delivered = late.received();
            }
            assertThat(delivered).extracting(r -> r.header("x-message-id")).doesNotHaveDuplicates();
            List<Long> dueTimes = delivered.stream().skip(1).map(r -> Long.parseLong(r.header("x-delay-due-at"))).toList();
            assertThat(dueTimes).as("after the probe, in due order (one slot per claim, 16 slots: sorted within a few)").hasSize(BACKLOG - 1);
            assertThat(inversions(dueTimes)).as("out-of-order pairs").isLessThan(dueTimes.size() * 2);
            awaitCondition(() -> api.get("/api/targets").json().get("targets").isEmpty(), "no target parked any more");
            assertThat(collector.received().stream().filter(r -> r.record().topic().equals(DLQ)).toList()).as("nothing dead-lettered").isEmpty();
        }
    }

    @Test
    void aPausedTargetsMessagesAreParkedUntilItIsResumed() throws Exception {
        String target = "kafka:" + PAUSED;
        assertThat(api.post("/api/targets/pause", "{\"target\": \"" + target + "\"}").status()).isEqualTo(200);
        assertThat(api.post("/api/targets/pause", "{\"target\": \"" + target + "\"}").status()).as("paused already").isEqualTo(409);
        assertThat(api.post("/api/targets/resume", "{\"target\": \"kafka:" + HEALTHY + "\"}").status()).as("not paused").isEqualTo(409);
        assertThat(api.post("/api/targets/pause", "{\"target\": \"nowhere\"}").status()).as("not a target").isEqualTo(400);

        try (TargetCollector collector = new TargetCollector(kafka, PAUSED, DLQ)) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                ids.add("paused-" + i);
                kafka.send(INBOUND, null, bytes("paused " + i), message("paused-" + i, PAUSED, 0));
            }
            kafka.flush();
            awaitCondition(() -> parkedOf(target) == 20, "20 parked");
            assertThat(api.get("/api/messages/paused-3").json().get("state").asText()).isEqualTo("parked");
            Thread.sleep(1_500);
            assertThat(collector.received()).as("neither delivered nor dead-lettered while paused").isEmpty();

            assertThat(api.post("/api/targets/resume", "{\"target\": \"" + target + "\"}").status()).isEqualTo(200);
            assertThat(collector.awaitArrivals(ids, Duration.ofSeconds(20))).hasSize(20);
            assertThat(collector.received()).extracting(r -> r.record().topic()).containsOnly(PAUSED);
        }
    }

    private static Map<String, String> message(String id, String topic, long delayMs) {
        return Map.of("x-message-id", id, "x-target", "kafka:" + topic, "x-delay", Long.toString(delayMs));
    }

    private static JsonNode targetView(String target) {
        for (JsonNode view : api.get("/api/targets").json().get("targets")) {
            if (view.get("target").asText().equals(target)) {
                return view;
            }
        }
        return null;
    }

    private static long parkedOf(String target) {
        JsonNode view = targetView(target);
        return view == null ? -1 : view.get("parked").asLong();
    }

    /** Pairs of neighbours out of order. */
    private static int inversions(List<Long> values) {
        int inversions = 0;
        for (int i = 1; i < values.size(); i++) {
            if (values.get(i) < values.get(i - 1)) {
                inversions++;
            }
        }
        return inversions;
    }

    private static void awaitCondition(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean()) {
            assertThat(System.currentTimeMillis()).as("waiting for: " + what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
