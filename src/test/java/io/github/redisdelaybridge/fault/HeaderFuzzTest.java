package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.Test;

/**
 * Random header values (random bytes, huge numbers, unicode, empty, whitespace, nulls) and payload
 * sizes: every message is either delivered or dead-lettered, exactly once, and no route stops.
 */
class HeaderFuzzTest {

    private static final String NAME = "fuzz";
    private static final int MESSAGES = 2_000;
    private static final int MAX_PAYLOAD = 4_096;

    private final Random random = new Random(20261129);

    @Test
    void everyFuzzedMessageIsScheduledOrDeadLettered() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.payload.max-bytes", Integer.toString(MAX_PAYLOAD));
        settings.put("bridge.delay.max-ms", "3000");
        settings.put("bridge.targets.allowed", "kafka:" + NAME + ".*");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        String deadLetters = settings.get("bridge.dead-letter.kafka-topic");
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(2, inbound, target, deadLetters);
            try (TargetCollector collector = new TargetCollector(kafka, target, deadLetters);
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                List<String> sent = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    String marker = "fz" + i;
                    sent.add(marker);
                    kafka.send(inbound, random.nextBoolean() ? null : randomBytes(16), body(marker), fuzzedHeaders());
                }
                kafka.flush();

                collector.awaitDistinct(MESSAGES, HeaderFuzzTest::marker, Duration.ofSeconds(60));
                Thread.sleep(1_000);
                List<Received> received = collector.received();
                List<String> delivered = received.stream().filter(r -> r.record().topic().equals(target)).map(HeaderFuzzTest::marker).toList();
                List<String> dead = received.stream().filter(r -> r.record().topic().equals(deadLetters)).map(HeaderFuzzTest::marker).toList();
                DeliveryReport report = DeliveryReport.of("HeaderFuzzTest", sent, delivered, dead);

                assertThat(report.missing()).isZero();
                assertThat(report.duplicates()).isZero();
                assertThat(delivered).as("nothing both delivered and dead-lettered").doesNotContainAnyElementsOf(dead);
                assertThat(report.delivered()).as("the fuzz also produced valid messages").isPositive();
                assertThat(report.deadLettered()).as("the fuzz also produced poison").isPositive();
                for (String route : List.of("kafka-inbound", "dispatch-due-messages", "reap-expired-leases")) {
                    assertThat(bridge.context().getRouteController().getRouteStatus(route).isStarted()).as(route).isTrue();
                }
            }
        }
    }

    private List<Header> fuzzedHeaders() {
        List<Header> headers = new ArrayList<>();
        int shape = random.nextInt(10);
        if (shape < 6) {
            headers.add(header("x-delay", pick(this::fuzzedNumber)));
        }
        if (shape >= 4 && shape < 9) {
            headers.add(header("x-deliver-at", pick(this::fuzzedInstant)));
        }
        headers.add(header("x-target", pick(() -> random.nextInt(4) == 0 ? fuzzedText() : "kafka:" + NAME + ".target")));
        if (random.nextInt(5) == 0) {
            headers.add(header("x-message-id", pick(this::fuzzedText)));
        }
        if (random.nextInt(3) == 0) {
            headers.add(new RecordHeader("user-" + random.nextInt(5), randomBytes(random.nextInt(64))));
        }
        return headers;
    }

    /** Mostly valid-looking values, sometimes random bytes or null. */
    private byte[] pick(Supplier<String> text) {
        return switch (random.nextInt(10)) {
            case 0 -> randomBytes(random.nextInt(20));
            case 1 -> null;
            default -> text.get().getBytes(StandardCharsets.UTF_8);
        };
    }

    private String fuzzedNumber() {
        return switch (random.nextInt(10)) {
            case 0 -> "";
            case 1 -> "   ";
            case 2 -> "99999999999999999999999999999";
            case 3 -> "-" + random.nextInt(1000);
            case 4 -> "١٢٣";
            case 5 -> " " + random.nextInt(1000) + "\t";
            case 6 -> random.nextInt(1000) + "." + random.nextInt(1000);
            case 7 -> "1e3";
            default -> Integer.toString(random.nextInt(1500));
        };
    }

    private String fuzzedInstant() {
        return switch (random.nextInt(8)) {
            case 0 -> "";
            case 1 -> "2026-13-45T99:99:99Z";
            case 2 -> Instant.now().plusMillis(random.nextInt(1500)).toString();
            case 3 -> Long.toString(System.currentTimeMillis() - random.nextInt(100_000));
            case 4 -> "9".repeat(30);
            case 5 -> "1969-01-01T00:00:00Z";
            case 6 -> "tomorrow ☀";
            default -> Long.toString(System.currentTimeMillis() + random.nextInt(1500));
        };
    }

    private String fuzzedText() {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(600);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(random.nextInt(3) == 0 ? 0x1F600 + random.nextInt(50) : 32 + random.nextInt(200));
        }
        return text.toString();
    }

    private byte[] body(String marker) {
        byte[] head = (marker + "|").getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + random.nextInt(MAX_PAYLOAD + 1_000)];
        random.nextBytes(body);
        System.arraycopy(head, 0, body, 0, head.length);
        return body;
    }

    private byte[] randomBytes(int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static Header header(String name, byte[] value) {
        return new RecordHeader(name, value);
    }

    static String marker(Received r) {
        String text = new String(r.record().value(), 0, Math.min(12, r.record().value().length), StandardCharsets.ISO_8859_1);
        return text.substring(0, text.indexOf('|'));
    }
}
