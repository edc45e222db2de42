package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A group cancelled end to end through a RabbitMQ inbound queue: messages carry x-group as an AMQP string header, a
 * cancel-group control message on the same queue withdraws them, and only the message of another group is delivered.
 */
class RabbitMqGroupCancelTest {

    private static final String NAME = "rmq-group-cancel";
    private static final String INBOUND = NAME + ".inbound";
    private static final String OUT = NAME + ".out";
    private static final String DLQ = NAME + ".dlq";

    private static KafkaTestClient kafka;
    private static RabbitMqTestClient rabbit;
    private static BridgeInstance bridge;
    private static AdminApiClient api;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, DLQ);
        rabbit = new RabbitMqTestClient();
        rabbit.declareQueue(OUT);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        bridge = BridgeInstance.start(settings);
        api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        rabbit.deleteQueue(INBOUND);
        rabbit.deleteQueue(OUT);
        rabbit.deleteQueue(DLQ);
        rabbit.close();
        kafka.close();
    }

    @Test
    void aCancelGroupOnTheQueueWithdrawsTheGroupsMessagesAndDeliversTheOthers() throws Exception {
        for (int i = 0; i < 4; i++) {
            rabbit.publishToQueue(INBOUND, Map.of("x-delay", "8000", "x-target", "rabbitmq:/" + OUT, "x-message-id", "rg-" + i,
                    "x-group", "order-77"), bytes("order 77 step " + i));
        }
        rabbit.publishToQueue(INBOUND, Map.of("x-delay", "8000", "x-target", "rabbitmq:/" + OUT, "x-message-id", "other",
                "x-group", "order-78"), bytes("order 78"));
        awaitPending("order-77", 4);
        awaitPending("order-78", 1);

        rabbit.publishToQueue(INBOUND, Map.of("x-control", "cancel-group", "x-group", "order-77"), new byte[0]);

        awaitPending("order-77", 0);
        for (int i = 0; i < 4; i++) {
            assertThat(api.get("/api/messages/rg-" + i).json().get("state").asText()).as("rg-" + i).isEqualTo("cancelled");
        }
        List<Received> delivered = rabbit.consume(OUT, 5, Duration.ofSeconds(20), Duration.ofSeconds(2));
        assertThat(delivered).extracting(received -> received.headerText("x-message-id")).containsExactly("other");
        assertThat(delivered.get(0).headerText("x-group")).as("x-group delivered as it came").isEqualTo("order-78");
    }

    private static void awaitPending(String group, long expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        long pending = -1;
        while (System.currentTimeMillis() < deadline) {
            pending = api.get("/api/groups/" + group).json().get("pending").asLong();
            if (pending == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("group " + group + ": " + pending + " pending, expected " + expected);
    }
}
