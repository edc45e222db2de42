package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.RabbitMqBridgeFixture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A group cancelled end to end through a RabbitMQ inbound queue: messages carry x-group as an AMQP string header, a
 * cancel-group control message on the same queue withdraws them, and only the message of another group is delivered.
 */
class RabbitMqGroupCancelTest {

    private static final String NAME = "rmq-group-cancel";
    private static final String INBOUND = NAME + ".inbound";
    private static final String OUT = NAME + ".out";

    @RegisterExtension
    static final RabbitMqBridgeFixture bridge = new RabbitMqBridgeFixture(NAME, OUT);

    @Test
    void aCancelGroupOnTheQueueWithdrawsTheGroupsMessagesAndDeliversTheOthers() throws Exception {
        for (int i = 0; i < 4; i++) {
            bridge.rabbit().publishToQueue(INBOUND, Map.of("x-delay", "8000", "x-target", "rabbitmq:/" + OUT, "x-message-id", "rg-" + i,
                    "x-group", "order-77"), bytes("order 77 step " + i));
        }
        bridge.rabbit().publishToQueue(INBOUND, Map.of("x-delay", "8000", "x-target", "rabbitmq:/" + OUT, "x-message-id", "other",
                "x-group", "order-78"), bytes("order 78"));
        awaitPending("order-77", 4);
        awaitPending("order-78", 1);

        bridge.rabbit().publishToQueue(INBOUND, Map.of("x-control", "cancel-group", "x-group", "order-77"), new byte[0]);

        awaitPending("order-77", 0);
        for (int i = 0; i < 4; i++) {
            assertThat(bridge.api().get("/api/messages/rg-" + i).json().get("state").asText()).as("rg-" + i).isEqualTo("cancelled");
        }
        List<Received> delivered = bridge.rabbit().consume(OUT, 5, Duration.ofSeconds(20), Duration.ofSeconds(2));
        assertThat(delivered).extracting(received -> received.headerText("x-message-id")).containsExactly("other");
        assertThat(delivered.get(0).headerText("x-group")).as("x-group delivered as it came").isEqualTo("order-78");
    }

    private static void awaitPending(String group, long expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        long pending = -1;
        while (System.currentTimeMillis() < deadline) {
            pending = bridge.api().get("/api/groups/" + group).json().get("pending").asLong();
            if (pending == expected) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("group " + group + ": " + pending + " pending, expected " + expected);
    }
}
