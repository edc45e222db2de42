package io.github.redisdelaybridge.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * One bridge between embedded Kafka and the local Redis, for end-to-end tests that send to an inbound topic and watch
 * target topics: its keys are cleared first, the topics exist, and a collector records everything the targets receive.
 * The inbound topic has two partitions so a test can send a control message on another partition than its message.
 */
public final class KafkaBridgeFixture implements AutoCloseable {

    private final KafkaTestClient kafka;
    private final BridgeInstance bridge;
    private final AdminApiClient api;
    private final TargetCollector collector;

    private KafkaBridgeFixture(KafkaTestClient kafka, BridgeInstance bridge, AdminApiClient api, TargetCollector collector) {
        this.kafka = kafka;
        this.bridge = bridge;
        this.api = api;
        this.collector = collector;
    }

    /** Starts a bridge named {@code name} reading {@code inbound}, collecting what arrives on {@code targets}. */
    public static KafkaBridgeFixture start(String name, String inbound, String... targets) {
        LocalRedis.deleteKeys("test-" + name);
        KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(2, inbound);
        kafka.createTopics(1, targets);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        BridgeInstance bridge = BridgeInstance.start(settings);
        AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
        return new KafkaBridgeFixture(kafka, bridge, api, new TargetCollector(kafka, targets));
    }

    public KafkaTestClient kafka() {
        return kafka;
    }

    public AdminApiClient api() {
        return api;
    }

    public TargetCollector collector() {
        return collector;
    }

    /** The state the admin API reports for a message id, or {@code unknown}. */
    public String state(String id) {
        JsonNode json = api.get("/api/messages/" + id).json();
        return json == null || json.get("state") == null ? "unknown" : json.get("state").asText();
    }

    /** Polls {@code condition} every {@code poll} until it holds, failing with {@code what} after {@code timeout}. */
    public static void awaitCondition(BooleanSupplier condition, String what, Duration timeout, Duration poll) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("not reached within " + timeout.toSeconds() + " s: " + what);
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /** Kafka headers as text, from name, value, name, value, ... in that order. */
    public static Map<String, String> headers(String... pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.put(pairs[i], pairs[i + 1]);
        }
        return headers;
    }

    @Override
    public void close() throws Exception {
        collector.close();
        bridge.close();
        kafka.close();
    }
}
