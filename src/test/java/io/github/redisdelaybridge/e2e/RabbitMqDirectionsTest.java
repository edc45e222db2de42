package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.LongString;
import com.rabbitmq.client.impl.LongStringHelper;
import io.github.redisdelaybridge.message.AmqpFieldValues;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delayed delivery in all four directions (Kafka and RabbitMQ, in and out) through one bridge, a real
 * Redis and real brokers: never early, bodies byte for byte, headers and properties as documented.
 */
class RabbitMqDirectionsTest {

    private static final String NAME = "rmq-directions";
    private static final String KAFKA_INBOUND = NAME + ".inbound";
    private static final String RABBIT_INBOUND = NAME + ".inbound";
    private static final String DLQ = NAME + ".dlq";
    private static final String INBOUND_EXCHANGE = NAME + ".delayed";
    private static final byte[] BINARY = binary(2048);
    private static final byte[] NOT_UTF8 = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0, (byte) 0x80};

    private static KafkaTestClient kafka;
    private static RabbitMqTestClient rabbit;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, KAFKA_INBOUND, NAME + ".k2k", NAME + ".r2k", NAME + ".dlq");
        rabbit = new RabbitMqTestClient();
        rabbit.declareQueue(NAME + ".r2r");
        rabbit.declareQueue(NAME + ".k2r");
        rabbit.declareQueue(NAME + ".routed");
        rabbit.declareExchange(NAME + ".exchange", "direct");
        rabbit.bind(NAME + ".routed", NAME + ".exchange", "the-key");
        rabbit.declareQueue(NAME + ".default");
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.rabbitmq.inbound-exchanges", RABBIT_INBOUND + "=" + INBOUND_EXCHANGE);
        settings.put("bridge.rabbitmq.default-targets", RABBIT_INBOUND + "=rabbitmq:/" + NAME + ".default");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        rabbit.deleteQueue(RABBIT_INBOUND);
        rabbit.deleteQueue(DLQ);
        rabbit.deleteExchange(INBOUND_EXCHANGE);
        rabbit.close();
        kafka.close();
    }

    @Test
    void rabbitToRabbitKeepsBodyTypedHeadersAndPropertiesAndIsNeverEarly() {
        Map<String, Object> userHeaders = typedHeaders();
        Map<String, Object> headers = new LinkedHashMap<>(userHeaders);
        headers.put("x-delay", 1500);
        headers.put("x-target", "rabbitmq:/" + NAME + ".r2r");
        Date timestamp = Date.from(Instant.parse("2026-01-02T03:04:05Z"));
        AMQP.BasicProperties sent = new AMQP.BasicProperties.Builder()
                .headers(headers).contentType("text/plain").contentEncoding("gzip").messageId("r2r-1")
                .correlationId("corr-7").priority(5).timestamp(timestamp).appId("billing").type("order.timeout")
                .replyTo("replies").deliveryMode(1).build();
        long sentAt = System.currentTimeMillis();
        rabbit.publish("", RABBIT_INBOUND, sent, BINARY);

        List<Received> received = rabbit.consume(NAME + ".r2r", 1, Duration.ofSeconds(20), Duration.ofMillis(300));

        assertThat(received).hasSize(1);
        Received message = received.get(0);
        assertThat(message.receivedAtMs() - sentAt).as("never early").isGreaterThanOrEqualTo(1500).isLessThan(8_000);
        assertThat(message.body()).isEqualTo(BINARY);
        AMQP.BasicProperties p = message.properties();
        assertThat(p.getContentType()).isEqualTo("text/plain");
        assertThat(p.getContentEncoding()).isEqualTo("gzip");
        assertThat(p.getMessageId()).isEqualTo("r2r-1");
        assertThat(p.getCorrelationId()).isEqualTo("corr-7");
        assertThat(p.getPriority()).isEqualTo(5);
        assertThat(p.getTimestamp()).isEqualTo(timestamp);
        assertThat(p.getAppId()).isEqualTo("billing");
        assertThat(p.getType()).isEqualTo("order.timeout");
        assertThat(p.getReplyTo()).isEqualTo("replies");
        assertThat(p.getDeliveryMode()).as("persistent").isEqualTo(2);
        Map<String, Object> delivered = new LinkedHashMap<>(p.getHeaders());
        assertThat(delivered.remove("x-message-id")).hasToString("r2r-1");
        long dueAt = Long.parseLong(delivered.remove("x-delay-due-at").toString());
        assertThat(dueAt - sentAt).isBetween(1500L, 4_000L);
        assertThat(delivered.keySet()).containsExactlyInAnyOrderElementsOf(userHeaders.keySet());
        userHeaders.forEach((name, value) -> assertThat(AmqpFieldValues.encode(delivered.get(name)))
                .as("header %s, byte for byte with its AMQP type", name).isEqualTo(AmqpFieldValues.encode(value)));
    }

    @Test
    void rabbitToAnExchangeWithRoutingKey() {
        rabbit.publishToQueue(RABBIT_INBOUND, Map.of("x-delay", "300", "x-target", "rabbitmq:" + NAME + ".exchange/the-key"),
                bytes("routed"));

        List<Received> received = rabbit.consume(NAME + ".routed", 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        assertThat(received.get(0).body()).isEqualTo(bytes("routed"));
        assertThat(received.get(0).headerText("x-message-id")).as("generated id").startsWith("rabbitmq-");
        assertThat(received.get(0).properties().getContentType()).as("no content type invented").isNull();
    }

    @Test
    void aProducerOnlyPointsAtTheBridgesExchangeAndKeepsItsRoutingKeyAndTheQueueHasADefaultTarget() {
        long sentAt = System.currentTimeMillis();
        rabbit.publish(INBOUND_EXCHANGE, "orders.created", new AMQP.BasicProperties.Builder()
                .headers(Map.of("x-delay", 700)).messageId("via-exchange").build(), bytes("via exchange"));

        List<Received> received = rabbit.consume(NAME + ".default", 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        assertThat(received.get(0).receivedAtMs() - sentAt).isGreaterThanOrEqualTo(700);
        assertThat(received.get(0).body()).isEqualTo(bytes("via exchange"));
        assertThat(received.get(0).headerText("x-message-id")).isEqualTo("via-exchange");
    }

    @Test
    void rabbitToKafkaMapsTypedHeadersToTextAndPropertiesToAmqpHeaders() {
        Map<String, Object> headers = new LinkedHashMap<>(typedHeaders());
        headers.put("x-delay", LongStringHelper.asLongString("PT1.2005S"));
        headers.put("x-target", "kafka:" + NAME + ".r2k");
        AMQP.BasicProperties sent = new AMQP.BasicProperties.Builder().headers(headers).contentType("application/json")
                .correlationId("corr-9").messageId("r2k-1").priority(3).build();
        long sentAt = System.currentTimeMillis();
        rabbit.publish("", RABBIT_INBOUND, sent, BINARY);

        List<KafkaTestClient.Received> received = kafka.consume(NAME + ".r2k", 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        KafkaTestClient.Received record = received.get(0);
        assertThat(record.receivedAtMs() - sentAt).as("never early (1200.5 ms rounds up)").isGreaterThanOrEqualTo(1201).isLessThan(8_000);
        assertThat(record.record().value()).isEqualTo(BINARY);
        assertThat(record.record().key()).isNull();
        assertThat(record.header("text")).isEqualTo("héllo");
        assertThat(record.header("int")).isEqualTo("42");
        assertThat(record.header("negative-long")).isEqualTo("-9000000000");
        assertThat(record.header("double")).isEqualTo("0.25");
        assertThat(record.header("big-double")).isEqualTo("10000000000000000000000");
        assertThat(record.header("decimal")).isEqualTo("12.50");
        assertThat(record.header("bool")).isEqualTo("true");
        assertThat(record.header("timestamp")).isEqualTo("2026-01-02T03:04:05Z");
        assertThat(record.header("table")).isEqualTo("{\"a\":1}");
        assertThat(record.header("list")).isEqualTo("[\"x\",2]");
        assertThat(record.record().headers().lastHeader("binary").value()).isEqualTo(NOT_UTF8);
        assertThat(record.record().headers().lastHeader("long-string-not-utf8").value()).isEqualTo(NOT_UTF8);
        assertThat(record.record().headers().lastHeader("void").value()).isNull();
        assertThat(record.header("amqp-content-type")).isEqualTo("application/json");
        assertThat(record.header("amqp-correlation-id")).isEqualTo("corr-9");
        assertThat(record.header("amqp-message-id")).isEqualTo("r2k-1");
        assertThat(record.header("amqp-priority")).isEqualTo("3");
        assertThat(record.header("x-message-id")).isEqualTo("r2k-1");
        assertThat(record.record().headers().lastHeader("x-delay")).isNull();
        assertThat(record.record().headers().lastHeader("x-target")).isNull();
    }

    @Test
    void kafkaToRabbitMapsBytesToStringsOrByteArraysAndTheKeyToAHeader() {
        List<Header> headers = new ArrayList<>();
        headers.add(new RecordHeader("x-delay", bytes("1000")));
        headers.add(new RecordHeader("x-target", bytes("rabbitmq:/" + NAME + ".k2r")));
        headers.add(new RecordHeader("x-message-id", bytes("k2r-1")));
        headers.add(new RecordHeader("text", bytes("héllo")));
        headers.add(new RecordHeader("binary", NOT_UTF8));
        headers.add(new RecordHeader("no-value", null));
        headers.add(new RecordHeader("repeated", bytes("first")));
        headers.add(new RecordHeader("repeated", bytes("last")));
        long sentAt = System.currentTimeMillis();
        sendAndWait(KAFKA_INBOUND, NOT_UTF8, BINARY, headers);

        List<Received> received = rabbit.consume(NAME + ".k2r", 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        Received message = received.get(0);
        assertThat(message.receivedAtMs() - sentAt).as("never early").isGreaterThanOrEqualTo(1000).isLessThan(8_000);
        assertThat(message.body()).isEqualTo(BINARY);
        assertThat(message.header("text")).isInstanceOf(LongString.class).hasToString("héllo");
        assertThat(message.header("binary")).isEqualTo(NOT_UTF8);
        assertThat(message.properties().getHeaders()).containsKey("no-value");
        assertThat(message.header("no-value")).isNull();
        assertThat(message.headerText("repeated")).isEqualTo("last");
        assertThat(message.header("x-kafka-key")).isEqualTo(NOT_UTF8);
        assertThat(message.headerText("x-message-id")).isEqualTo("k2r-1");
        assertThat(Long.parseLong(message.headerText("x-delay-due-at")) - sentAt).isBetween(1000L, 4_000L);
        assertThat(message.header("x-delay")).isNull();
        assertThat(message.properties().getDeliveryMode()).isEqualTo(2);
    }

    @Test
    void kafkaToKafkaStillByteForByte() {
        List<Header> headers = new ArrayList<>();
        headers.add(new RecordHeader("x-delay", bytes("800")));
        headers.add(new RecordHeader("x-target", bytes("kafka:" + NAME + ".k2k")));
        headers.add(new RecordHeader("binary", NOT_UTF8));
        long sentAt = System.currentTimeMillis();
        sendAndWait(KAFKA_INBOUND, bytes("key"), BINARY, headers);

        List<KafkaTestClient.Received> received = kafka.consume(NAME + ".k2k", 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        assertThat(received.get(0).receivedAtMs() - sentAt).isGreaterThanOrEqualTo(800).isLessThan(8_000);
        assertThat(received.get(0).record().value()).isEqualTo(BINARY);
        assertThat(received.get(0).record().key()).isEqualTo(bytes("key"));
        assertThat(received.get(0).record().headers().lastHeader("binary").value()).isEqualTo(NOT_UTF8);
    }

    @Test
    void poisonFromRabbitMqIsDeadLetteredWithItsReasonAndAcked() {
        rabbit.publishToQueue(RABBIT_INBOUND, Map.of("x-delay", -5, "x-target", "rabbitmq:/" + NAME + ".r2r", "trace", 7),
                bytes("negative"));
        rabbit.publishToQueue(RABBIT_INBOUND, Map.of("x-target", "rabbitmq:/" + NAME + ".r2r"), bytes("no delay"));
        rabbit.publishToQueue(RABBIT_INBOUND, Map.of("x-delay", 10, "x-target", "rabbitmq:/" + RABBIT_INBOUND), bytes("loop"));
        rabbit.publishToQueue(RABBIT_INBOUND, Map.of("x-delay", 10, "x-target", "rabbitmq:" + INBOUND_EXCHANGE + "/any"),
                bytes("loop via exchange"));

        List<Received> deadLetters = rabbit.consume(DLQ, 4, Duration.ofSeconds(20));

        Map<String, Received> byBody = new LinkedHashMap<>();
        deadLetters.forEach(d -> byBody.put(new String(d.body(), StandardCharsets.UTF_8), d));
        assertThat(byBody.keySet()).containsExactlyInAnyOrder("negative", "no delay", "loop", "loop via exchange");
        Received negative = byBody.get("negative");
        assertThat(negative.headerText("x-dead-letter-reason")).isEqualTo("invalid-delay");
        assertThat(negative.headerText("x-dead-letter-detail")).contains("-5");
        assertThat(negative.headerText("x-dead-letter-origin")).isEqualTo("rabbitmq:" + RABBIT_INBOUND);
        assertThat(negative.headerText("x-dead-letter-attempts")).isEqualTo("0");
        assertThat(negative.header("x-delay")).as("original header kept with its type").isEqualTo(-5);
        assertThat(negative.header("trace")).isEqualTo(7);
        assertThat(byBody.get("no delay").headerText("x-dead-letter-reason")).isEqualTo("missing-delay");
        assertThat(byBody.get("loop").headerText("x-dead-letter-reason")).isEqualTo("forbidden-target");
        assertThat(byBody.get("loop via exchange").headerText("x-dead-letter-reason")).isEqualTo("forbidden-target");
        assertThat(rabbit.readyAndUnacked(RABBIT_INBOUND)).as("ready, unacked").containsExactly(0, 0);
    }

    private static Map<String, Object> typedHeaders() {
        Map<String, Object> headers = new LinkedHashMap<>();
        headers.put("text", "héllo");
        headers.put("int", 42);
        headers.put("negative-long", -9_000_000_000L);
        headers.put("double", 0.25d);
        headers.put("big-double", 1e22d);
        headers.put("decimal", new BigDecimal("12.50"));
        headers.put("bool", true);
        headers.put("timestamp", Date.from(Instant.parse("2026-01-02T03:04:05Z")));
        headers.put("binary", NOT_UTF8);
        headers.put("long-string-not-utf8", LongStringHelper.asLongString(NOT_UTF8));
        headers.put("table", Map.of("a", 1));
        headers.put("list", List.of("x", 2));
        headers.put("void", null);
        return headers;
    }

    private static void sendAndWait(String topic, byte[] key, byte[] value, List<Header> headers) {
        try {
            kafka.send(topic, key, value, headers).get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] binary(int size) {
        byte[] bytes = new byte[size];
        new Random(3).nextBytes(bytes);
        return bytes;
    }
}
