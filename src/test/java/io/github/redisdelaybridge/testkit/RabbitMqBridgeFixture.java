package io.github.redisdelaybridge.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One bridge reading a RabbitMQ inbound queue ({@code <name>.inbound}, dead letters to queue {@code <name>.dlq}), on the
 * local Redis and broker, for all the tests of a class ({@code @RegisterExtension}). Its keys are cleared first; its
 * Kafka inbound and dead-letter topics exist, so that only RabbitMQ is under test; every queue of the test is deleted
 * afterwards, so that nothing is left on the shared broker.
 */
public final class RabbitMqBridgeFixture implements BeforeAllCallback, AfterAllCallback {

    private final String name;
    private final List<String> targetQueues;
    private RabbitMqTestClient rabbit;
    private BridgeInstance bridge;
    private AdminApiClient api;

    /** A bridge named {@code name} that may deliver to {@code targetQueues}, declared before it starts. */
    public RabbitMqBridgeFixture(String name, String... targetQueues) {
        this.name = name;
        this.targetQueues = List.of(targetQueues);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        LocalRedis.deleteKeys("test-" + name);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, name + ".inbound", name + ".dlq");
        }
        rabbit = new RabbitMqTestClient();
        targetQueues.forEach(rabbit::declareQueue);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(name, LocalRedis.URI), name);
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
    }

    public RabbitMqTestClient rabbit() {
        return rabbit;
    }

    public AdminApiClient api() {
        return api;
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (bridge != null) {
            bridge.close();
        }
        if (rabbit != null) {
            List<String> queues = new ArrayList<>(List.of(name + ".inbound", name + ".dlq"));
            queues.addAll(targetQueues);
            queues.forEach(rabbit::deleteQueue);
            rabbit.close();
        }
    }
}
