package io.github.redisdelaybridge.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One bridge between embedded Kafka and the local Redis for all the tests of a class ({@code @RegisterExtension}), for
 * end-to-end tests that send to an inbound topic and watch target topics: its keys are cleared first, the topics exist,
 * and a collector records everything the targets receive.
 * The inbound topic has two partitions so a test can send a control message on another partition than its message.
 */
public final class KafkaBridgeFixture implements BeforeAllCallback, AfterAllCallback {

    private final String name;
    private final String inbound;
    private final String[] targets;
    private KafkaTestClient kafka;
    private BridgeInstance bridge;
    private AdminApiClient api;
    private TargetCollector collector;

    /** A bridge named {@code name} reading {@code inbound}, collecting what arrives on {@code targets}. */
    public KafkaBridgeFixture(String name, String inbound, String... targets) {
        this.name = name;
        this.inbound = inbound;
        this.targets = targets;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        LocalRedis.deleteKeys("test-" + name);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(2, inbound);
        kafka.createTopics(1, targets);
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
        collector = new TargetCollector(kafka, targets);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (collector != null) {
            collector.close();
        }
        if (bridge != null) {
            bridge.close();
        }
        if (kafka != null) {
            kafka.close();
        }
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
}
