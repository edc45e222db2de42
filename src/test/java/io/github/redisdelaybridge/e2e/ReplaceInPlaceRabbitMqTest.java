package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.message.AmqpFieldValues;
import io.github.redisdelaybridge.testkit.RabbitMqBridgeFixture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code x-control: replace} through RabbitMQ, in and out: the replacement's body, typed headers and properties reach
 * the new target once, at the new due time; the old target gets nothing.
 */
class ReplaceInPlaceRabbitMqTest {

    private static final String NAME = "rmq-replace";
    private static final String INBOUND = NAME + ".inbound";
    private static final String OLD_QUEUE = NAME + ".old";
    private static final String NEW_QUEUE = NAME + ".new";

    @RegisterExtension
    static final RabbitMqBridgeFixture bridge = new RabbitMqBridgeFixture(NAME, OLD_QUEUE, NEW_QUEUE);

    @Test
    void theReplacementsBodyTypedHeadersAndPropertiesArriveOnceAtTheNewDueTime() throws Exception {
        Map<String, Object> oldHeaders = new LinkedHashMap<>(Map.of("x-delay", 15_000, "x-target", "rabbitmq:/" + OLD_QUEUE,
                "x-message-id", "rmq-order-9", "only-old", 1));
        bridge.rabbit().publish("", INBOUND, new AMQP.BasicProperties.Builder().headers(oldHeaders).contentType("text/plain")
                .correlationId("corr-old").deliveryMode(2).build(), new byte[] {'o', 'l', 'd'});
        awaitPending("rmq-order-9");

        Map<String, Object> userHeaders = new LinkedHashMap<>();
        userHeaders.put("amount", 4_200_000_000L);
        userHeaders.put("urgent", true);
        userHeaders.put("note", "new");
        Map<String, Object> replaceHeaders = new LinkedHashMap<>(userHeaders);
        replaceHeaders.put("x-control", "replace");
        replaceHeaders.put("x-message-id", "rmq-order-9");
        replaceHeaders.put("x-delay", 20_000); // after the old due time, so that the old target had its chance
        replaceHeaders.put("x-target", "rabbitmq:/" + NEW_QUEUE);
        byte[] newBody = {(byte) 0xC3, 0x28, (byte) 0xFF, 0, (byte) 0x80, 'n'};
        long sentAt = System.currentTimeMillis();
        bridge.rabbit().publish("", INBOUND, new AMQP.BasicProperties.Builder().headers(replaceHeaders).contentType("application/json")
                .correlationId("corr-new").type("order.reminder").deliveryMode(2).build(), newBody);

        List<Received> received = bridge.rabbit().consume(NEW_QUEUE, 1, Duration.ofSeconds(45), Duration.ofSeconds(3));

        assertThat(received).as("exactly once").hasSize(1);
        Received message = received.get(0);
        assertThat(message.receivedAtMs() - sentAt).as("not before the new due time").isGreaterThanOrEqualTo(20_000).isLessThan(35_000);
        assertThat(message.body()).isEqualTo(newBody);
        AMQP.BasicProperties p = message.properties();
        assertThat(p.getContentType()).isEqualTo("application/json");
        assertThat(p.getCorrelationId()).isEqualTo("corr-new");
        assertThat(p.getType()).isEqualTo("order.reminder");
        Map<String, Object> delivered = new LinkedHashMap<>(p.getHeaders());
        assertThat(delivered.remove("x-message-id")).hasToString("rmq-order-9");
        delivered.remove("x-delay-due-at");
        assertThat(delivered.keySet()).containsExactlyInAnyOrderElementsOf(userHeaders.keySet());
        userHeaders.forEach((name, value) -> assertThat(AmqpFieldValues.encode(delivered.get(name)))
                .as("header %s, byte for byte with its AMQP type", name).isEqualTo(AmqpFieldValues.encode(value)));
        assertThat(bridge.rabbit().consume(OLD_QUEUE, 1, Duration.ofSeconds(1))).as("the old target gets nothing").isEmpty();
    }

    private static void awaitPending(String id) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 20_000;
        while (true) {
            JsonNode json = bridge.api().get("/api/messages/" + id).json();
            if (json != null && json.get("state") != null && json.get("state").asText().equals("pending")) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError(id + " not pending within 20 s");
            }
            Thread.sleep(50);
        }
    }
}
