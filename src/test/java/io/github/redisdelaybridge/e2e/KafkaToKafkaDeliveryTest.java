package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Delayed delivery from one Kafka topic to another, through a real Redis and a real broker. */
class KafkaToKafkaDeliveryTest {

    private static final String NAME = "k2k";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(3, INBOUND);
        kafka.createTopics(1, TARGET, TARGET + ".ordered", TARGET + ".binary", TARGET + ".past", TARGET + ".lone", TARGET + ".metrics");
        bridge = BridgeInstance.start(BridgeInstance.settings(NAME, LocalRedis.URI));
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void deliversNotBeforeTheDelayAndSoonAfter() throws Exception {
        long sentAt = System.currentTimeMillis();
        kafka.sendAndWait(INBOUND, bytes("order-1"), bytes("cancel order 1"),
                Map.of("x-delay", "1500", "x-target", "kafka:" + TARGET, "x-message-id", "order-1-timeout"));

        List<Received> received = kafka.consume(TARGET, 1, Duration.ofSeconds(20));

        assertThat(received).hasSize(1);
        Received message = received.get(0);
        assertThat(message.receivedAtMs() - sentAt).isGreaterThanOrEqualTo(1500).isLessThan(6_000);
        assertThat(message.record().value()).isEqualTo(bytes("cancel order 1"));
        assertThat(message.record().key()).isEqualTo(bytes("order-1"));
        assertThat(message.header("x-message-id")).isEqualTo("order-1-timeout");
        long dueAt = Long.parseLong(message.header("x-delay-due-at"));
        assertThat(dueAt - sentAt).isBetween(1500L, 3_000L);
        assertThat(message.record().headers().lastHeader("x-delay")).isNull();
        assertThat(message.record().headers().lastHeader("x-target")).isNull();
    }

    @Test
    void aLoneRecordIsStoredAfterTheLingerNotAfterAPollTimeout() throws Exception {
        // x-delay counts from storing, so a record that waits in the inbound batch arrives that much later
        // than its producer meant; camel-kafka's default would hold a lone record for its 500 ms poll timeout
        List<Long> storedAfter = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            long sentAt = System.currentTimeMillis();
            kafka.sendAndWait(INBOUND, null, bytes("lone-" + i), Map.of("x-delay", "0", "x-target", "kafka:" + TARGET + ".lone"));
            Received received = kafka.consume(TARGET + ".lone", i + 1, Duration.ofSeconds(20)).get(i);
            storedAfter.add(Long.parseLong(received.header("x-delay-due-at")) - sentAt);
        }

        storedAfter.sort(null);
        assertThat(storedAfter.get(2)).as("median ms from send to stored, of %s", storedAfter).isLessThan(250);
    }

    @Test
    void binaryBodiesKeysAndHeadersArriveByteForByte() throws Exception {
        Random random = new Random(42);
        byte[] invalidUtf8 = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, 0, (byte) 0x80};
        byte[] oneMiB = new byte[1024 * 1024];
        random.nextBytes(oneMiB);
        byte[] binaryHeader = new byte[64];
        random.nextBytes(binaryHeader);
        List<byte[]> bodies = List.of(new byte[0], invalidUtf8, oneMiB, bytes("plain text"));
        List<byte[]> keys = Arrays.asList(null, bytes("k-1"), invalidUtf8, null);

        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            List<Header> headers = new ArrayList<>();
            headers.add(new RecordHeader("x-delay", bytes("200")));
            headers.add(new RecordHeader("x-target", bytes("kafka:" + TARGET + ".binary")));
            headers.add(new RecordHeader("x-message-id", bytes("binary-" + i)));
            headers.add(new RecordHeader("user-binary", binaryHeader));
            headers.add(new RecordHeader("user-null", null));
            headers.add(new RecordHeader("user-repeated", bytes("first")));
            headers.add(new RecordHeader("user-repeated", bytes("second")));
            sent.add(kafka.send(INBOUND, keys.get(i), bodies.get(i), headers));
        }
        for (Future<RecordMetadata> f : sent) {
            f.get();
        }

        List<Received> received = kafka.consume(TARGET + ".binary", bodies.size(), Duration.ofSeconds(30));

        assertThat(received).hasSize(bodies.size());
        for (Received r : received) {
            int i = Integer.parseInt(r.header("x-message-id").substring("binary-".length()));
            assertThat(r.record().value()).as("body %d", i).isEqualTo(bodies.get(i));
            assertThat(r.record().key()).as("key %d", i).isEqualTo(keys.get(i));
            List<Header> userHeaders = new ArrayList<>();
            r.record().headers().forEach(h -> {
                if (h.key().startsWith("user-")) {
                    userHeaders.add(h);
                }
            });
            assertThat(userHeaders).extracting(Header::key).containsExactly("user-binary", "user-null", "user-repeated", "user-repeated");
            assertThat(userHeaders.get(0).value()).isEqualTo(binaryHeader);
            assertThat(userHeaders.get(1).value()).isNull();
            assertThat(userHeaders.get(2).value()).isEqualTo(bytes("first"));
            assertThat(userHeaders.get(3).value()).isEqualTo(bytes("second"));
        }
    }

    @Test
    void differentDelaysComeOutInDueOrder() throws Exception {
        int[] delays = {2400, 600, 1800, 0, 1200, 3000, 300};
        for (int i = 0; i < delays.length; i++) {
            kafka.send(INBOUND, null, bytes("delay-" + delays[i]),
                    Map.of("x-delay", Integer.toString(delays[i]), "x-target", "kafka:" + TARGET + ".ordered"));
        }
        kafka.flush();

        List<Received> received = kafka.consume(TARGET + ".ordered", delays.length, Duration.ofSeconds(30));

        int[] sorted = delays.clone();
        Arrays.sort(sorted);
        assertThat(received).extracting(r -> new String(r.record().value(), StandardCharsets.UTF_8))
                .containsExactly(Arrays.stream(sorted).mapToObj(d -> "delay-" + d).toArray(String[]::new));
        List<Long> dueTimes = received.stream().map(r -> Long.parseLong(r.header("x-delay-due-at"))).toList();
        assertThat(dueTimes).isSorted();
    }

    @Test
    void deliverAtInThePastIsDeliveredPromptly() {
        long sentAt = System.currentTimeMillis();
        kafka.sendAndWait(INBOUND, null, bytes("late"),
                Map.of("x-deliver-at", Instant.now().minusSeconds(3600).toString(), "x-target", "kafka:" + TARGET + ".past"));
        kafka.sendAndWait(INBOUND, null, bytes("late-epoch"),
                Map.of("x-deliver-at", Long.toString(sentAt - 10_000), "x-target", "kafka:" + TARGET + ".past"));

        List<Received> received = kafka.consume(TARGET + ".past", 2, Duration.ofSeconds(20));

        assertThat(received).hasSize(2);
        for (Received r : received) {
            assertThat(r.receivedAtMs() - sentAt).isLessThan(5_000);
        }
    }

    @Test
    void deliveriesAndLatenessAreInTheMetrics() {
        kafka.sendAndWait(INBOUND, null, bytes("counted"), Map.of("x-delay", "0", "x-target", "kafka:" + TARGET + ".metrics"));
        assertThat(kafka.consume(TARGET + ".metrics", 1, Duration.ofSeconds(20))).hasSize(1);

        String metrics = bridge.httpGet("/observe/metrics");

        assertThat(metrics).startsWith("200");
        double delivered = metrics.lines().filter(l -> l.startsWith("bridge_messages_delivered_total"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(delivered).isGreaterThanOrEqualTo(1);
        assertThat(metrics).contains("bridge_delivery_lateness_seconds_bucket").contains("bridge_messages_scheduled_total")
                .contains("bridge_dispatch_in_flight");
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
