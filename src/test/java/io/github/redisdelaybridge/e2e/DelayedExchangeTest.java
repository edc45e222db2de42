package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.LongStringHelper;
import io.github.redisdelaybridge.message.AmqpFieldValues;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import io.github.redisdelaybridge.testkit.RoutedDeliveries;
import io.github.redisdelaybridge.testkit.RoutedDeliveries.Delivery;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A delayed exchange ({@code bridge.rabbitmq.delayed-exchanges}) and {@code {routing-key}} in targets, on the real
 * RabbitMQ: a message published to the delayed exchange reaches the target exchange with the routing key it was published
 * with, its headers and properties as for any RabbitMQ target; what the delayed-message-exchange plugin delivered at
 * once or dropped is dead-lettered with a reason.
 */
class DelayedExchangeTest {

    private static final String NAME = "delayed-exchange";
    private static final String ORDERS = NAME + ".orders";
    private static final String DELAYED = NAME + ".orders.delayed";
    private static final String DELAYED_QUEUE = "redis-delay-bridge.delayed." + DELAYED;
    private static final String INBOUND_EXCHANGE = NAME + ".in";
    private static final String CREATED = NAME + ".created";
    private static final String ALL = NAME + ".all";
    private static final String DLQ = NAME + ".dlq";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static RabbitMqTestClient rabbit;
    private static KafkaTestClient kafka;
    private static RoutedDeliveries created;
    private static RoutedDeliveries all;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, NAME + ".inbound", DLQ);
        rabbit = new RabbitMqTestClient();
        rabbit.declareExchange(ORDERS, "topic");
        rabbit.declareQueue(CREATED);
        rabbit.bind(CREATED, ORDERS, "order.created.*");
        rabbit.declareQueue(ALL);
        rabbit.bind(ALL, ORDERS, "order.#");
        created = new RoutedDeliveries(CREATED);
        all = new RoutedDeliveries(ALL);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.rabbitmq.delayed-exchanges", DELAYED + "=" + ORDERS);
        settings.put("bridge.rabbitmq.inbound-exchanges", NAME + ".inbound=" + INBOUND_EXCHANGE);
        settings.put("bridge.rabbitmq.default-targets", NAME + ".inbound=rabbitmq:" + ORDERS + "/{routing-key}");
        settings.put("bridge.targets.allowed", "rabbitmq:" + ORDERS + "/*");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        if (bridge != null) {
            bridge.close();
        }
        created.close();
        all.close();
        rabbit.deleteQueue(DELAYED_QUEUE);
        rabbit.deleteExchange(DELAYED);
        rabbit.deleteQueue(NAME + ".inbound");
        rabbit.deleteExchange(INBOUND_EXCHANGE);
        rabbit.deleteQueue(DLQ);
        rabbit.close();
        kafka.close();
    }

    @Test
    void theBridgeDeclaresADurableFanoutExchangeBoundToADurableQueueOfItsOwn() {
        assertThat(RabbitMqTestClient.rabbitmqctl("list_exchanges", "-q", "--no-table-headers", "name", "type", "durable"))
                .containsPattern("(?m)^" + DELAYED.replace(".", "\\.") + "\\s+fanout\\s+true\\s*$");
        assertThat(RabbitMqTestClient.rabbitmqctl("list_queues", "-q", "--no-table-headers", "name", "durable"))
                .containsPattern("(?m)^" + DELAYED_QUEUE.replace(".", "\\.") + "\\s+true\\s*$");
        assertThat(RabbitMqTestClient.rabbitmqctl("list_bindings", "-q", "--no-table-headers", "source_name", "destination_name"))
                .containsPattern("(?m)^" + DELAYED.replace(".", "\\.") + "\\s+" + DELAYED_QUEUE.replace(".", "\\.") + "\\s*$");
    }

    @Test
    void aMessageReachesTheTargetExchangeWithTheRoutingKeyItWasPublishedWithItsHeadersAndProperties() {
        Map<String, Object> userHeaders = new LinkedHashMap<>();
        userHeaders.put("tenant", "eu-1");
        userHeaders.put("attempt", 3);
        userHeaders.put("big", 1L << 40);
        userHeaders.put("vip", true);
        userHeaders.put("amount", new BigDecimal("12.50"));
        userHeaders.put("trace", LongStringHelper.asLongString("t-77"));
        Map<String, Object> headers = new LinkedHashMap<>(userHeaders);
        headers.put("x-delay", 800);
        Date timestamp = Date.from(Instant.parse("2026-01-02T03:04:05Z"));
        AMQP.BasicProperties sent = new AMQP.BasicProperties.Builder().headers(headers).contentType("application/json")
                .contentEncoding("utf-8").messageId("order-1-created").correlationId("checkout-9").priority(4).timestamp(timestamp)
                .appId("shop").type("OrderCreated").replyTo("replies").deliveryMode(2).build();
        long sentAt = System.currentTimeMillis();
        rabbit.publish(DELAYED, "order.created.eu", sent, bytes("{\"order\":1}"));

        List<Delivery> toCreated = created.await(d -> d.bodyText().equals("{\"order\":1}"), 1, WAIT, Duration.ofMillis(300));
        List<Delivery> toAll = all.await(d -> d.bodyText().equals("{\"order\":1}"), 1, WAIT, Duration.ofMillis(300));

        assertThat(toCreated).hasSize(1);
        assertThat(toAll).hasSize(1);
        Delivery delivery = toCreated.get(0);
        assertThat(delivery.exchange()).isEqualTo(ORDERS);
        assertThat(delivery.routingKey()).isEqualTo("order.created.eu");
        assertThat(delivery.receivedAtMs() - sentAt).as("never early").isGreaterThanOrEqualTo(800).isLessThan(10_000);
        AMQP.BasicProperties p = delivery.properties();
        assertThat(p.getContentType()).isEqualTo("application/json");
        assertThat(p.getContentEncoding()).isEqualTo("utf-8");
        assertThat(p.getMessageId()).isEqualTo("order-1-created");
        assertThat(p.getCorrelationId()).isEqualTo("checkout-9");
        assertThat(p.getPriority()).isEqualTo(4);
        assertThat(p.getTimestamp()).isEqualTo(timestamp);
        assertThat(p.getAppId()).isEqualTo("shop");
        assertThat(p.getType()).isEqualTo("OrderCreated");
        assertThat(p.getReplyTo()).isEqualTo("replies");
        assertThat(p.getDeliveryMode()).isEqualTo(2);
        Map<String, Object> delivered = new LinkedHashMap<>(p.getHeaders());
        assertThat(delivered.remove("x-message-id")).hasToString("order-1-created");
        assertThat(Long.parseLong(delivered.remove("x-delay-due-at").toString()) - sentAt).isBetween(800L, 5_000L);
        assertThat(delivered.keySet()).as("x-delay is the bridge's, not passed on").containsExactlyInAnyOrderElementsOf(userHeaders.keySet());
        userHeaders.forEach((name, value) -> assertThat(AmqpFieldValues.encode(delivered.get(name)))
                .as("header %s, with its AMQP type", name).isEqualTo(AmqpFieldValues.encode(value)));
    }

    @Test
    void whatThePluginDeliveredAtOnceOrDroppedIsDeadLetteredWithAReason() {
        Map<String, Object[]> cases = new LinkedHashMap<>(); // message id -> routing key, x-delay (null: none), expected reason
        cases.put("negative", new Object[] {"order.created.eu", -1000, "invalid-delay"});
        cases.put("not-a-number", new Object[] {"order.created.eu", "soon", "invalid-delay"});
        cases.put("beyond-max-ms", new Object[] {"order.created.eu", 31_536_000_001L, "delay-too-long"});
        cases.put("no-delay", new Object[] {"order.created.eu", null, "missing-delay"});
        cases.put("unroutable", new Object[] {"invoice.paid", 100, "publish-failed"});
        cases.forEach((id, c) -> {
            Map<String, Object> headers = new LinkedHashMap<>();
            if (c[1] != null) {
                headers.put("x-delay", c[1]);
            }
            rabbit.publish(DELAYED, (String) c[0], new AMQP.BasicProperties.Builder().messageId(id).headers(headers).build(), bytes(id));
        });
        // 2^32 ms, more than the plugin took: within bridge.delay.max-ms, so it waits in Redis
        rabbit.publish(DELAYED, "order.created.eu", new AMQP.BasicProperties.Builder().messageId("fifty-days")
                .headers(Map.of("x-delay", 4_294_967_296L)).build(), bytes("fifty-days"));

        List<Received> deadLetters = rabbit.consume(DLQ, cases.size(), Duration.ofSeconds(30), Duration.ofMillis(500));

        Map<String, String> reasons = new LinkedHashMap<>();
        deadLetters.forEach(d -> reasons.put(d.headerText("x-message-id"), d.headerText("x-dead-letter-reason")));
        Map<String, String> expected = new LinkedHashMap<>();
        cases.forEach((id, c) -> expected.put(id, (String) c[2]));
        assertThat(reasons).containsExactlyInAnyOrderEntriesOf(expected);
        assertThat(deadLetters).filteredOn(d -> !"unroutable".equals(d.headerText("x-message-id")))
                .as("refused on the way in: the routing key kept for a replay").allSatisfy(d ->
                        assertThat(d.headerText("x-dead-letter-routing-key")).isEqualTo("order.created.eu"));
        Received unroutable = deadLetters.stream().filter(d -> "unroutable".equals(d.headerText("x-message-id"))).findFirst().orElseThrow();
        assertThat(unroutable.headerText("x-dead-letter-detail")).contains("NO_ROUTE");
        assertThat(unroutable.headerText("x-target")).isEqualTo("rabbitmq:" + ORDERS + "/invoice.paid");
        assertThat(all.await(d -> expected.containsKey(d.bodyText()), 0, Duration.ZERO, Duration.ofMillis(500))).as("none delivered").isEmpty();
        assertThat(bridge.httpGet("/api/messages/fifty-days")).startsWith("200 ").contains("\"state\":\"pending\"")
                .contains("\"target\":\"rabbitmq:" + ORDERS + "/order.created.eu\"");
    }

    @Test
    void theRoutingKeyPlaceholderWorksInADefaultTargetAndInXTarget() {
        rabbit.publish(INBOUND_EXCHANGE, "order.created.us", new AMQP.BasicProperties.Builder()
                .headers(Map.of("x-delay", 300)).build(), bytes("by default target"));
        rabbit.publish(INBOUND_EXCHANGE, "eu", new AMQP.BasicProperties.Builder()
                .headers(Map.of("x-delay", 300, "x-target", "rabbitmq:" + ORDERS + "/order.created.{routing-key}")).build(), bytes("by x-target"));

        List<Delivery> delivered = created.await(d -> d.bodyText().startsWith("by "), 2, WAIT, Duration.ofMillis(300));

        Map<String, String> keyByBody = new LinkedHashMap<>();
        delivered.forEach(d -> keyByBody.put(d.bodyText(), d.routingKey()));
        assertThat(keyByBody).containsExactlyInAnyOrderEntriesOf(Map.of("by default target", "order.created.us", "by x-target", "order.created.eu"));
    }

    @Test
    void aMessageFromKafkaHasNoRoutingKeyForThePlaceholder() throws Exception {
        kafka.sendAndWait(NAME + ".inbound", bytes("order-7"), bytes("from kafka"),
                Map.of("x-delay", "100", "x-target", "rabbitmq:" + ORDERS + "/{routing-key}", "x-message-id", "kafka-placeholder"));

        List<KafkaTestClient.Received> dead = kafka.consume(DLQ, 1, WAIT);

        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).header("x-dead-letter-reason")).isEqualTo("invalid-target");
        assertThat(dead.get(0).header("x-dead-letter-detail")).contains("names {routing-key}, the routing key of a message from RabbitMQ;"
                + " this message has none");
    }
}
