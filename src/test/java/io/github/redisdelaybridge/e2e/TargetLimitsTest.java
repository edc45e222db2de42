package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The controls of configured target patterns, end to end through embedded Kafka and a real Redis: a burst due at once for
 * a rate-limited target goes out at its rate, with nothing lost and each message still saying the due time it was given,
 * while an unlimited target's messages due at the same time are not held behind it; and a message later than its pattern's
 * maximum lateness is dead-lettered as expired while a punctual one is delivered.
 */
class TargetLimitsTest {

    private static final String NAME = "target-limits";
    private static final String INBOUND = NAME + ".inbound";
    private static final String DLQ = NAME + ".dlq";
    private static final String SLOW = NAME + ".slow";
    private static final String FAST = NAME + ".fast";
    private static final String LATE = NAME + ".late";
    private static final int RATE = 1_000;

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, DLQ, SLOW, FAST, LATE);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.targets.limits", "slow,punctual");
        settings.put("bridge.targets.slow.pattern", "kafka:" + NAME + ".slo*");
        settings.put("bridge.targets.slow.rate-per-second", Integer.toString(RATE));
        settings.put("bridge.targets.punctual.pattern", "kafka:" + LATE);
        settings.put("bridge.targets.punctual.max-lateness-ms", "5000");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
        LocalRedis.deleteKeys("test-" + NAME);
    }

    @Test
    void aBurstForARateLimitedTargetGoesOutAtItsRateWithoutHoldingAnotherTarget() throws Exception {
        int slowCount = 6_000;
        int fastCount = 300;
        long dueAt = System.currentTimeMillis() + 5_000;
        try (TargetCollector collector = new TargetCollector(kafka, SLOW, FAST)) {
            List<String> slowIds = new ArrayList<>();
            List<String> fastIds = new ArrayList<>();
            for (int i = 0; i < slowCount; i++) {
                slowIds.add("slow-" + i);
                kafka.send(INBOUND, null, bytes("s" + i), Map.of("x-deliver-at", Long.toString(dueAt), "x-target", "kafka:" + SLOW,
                        "x-message-id", "slow-" + i));
                if (i % (slowCount / fastCount) == 0) {
                    fastIds.add("fast-" + i);
                    kafka.send(INBOUND, null, bytes("f" + i), Map.of("x-deliver-at", Long.toString(dueAt), "x-target", "kafka:" + FAST,
                            "x-message-id", "fast-" + i));
                }
            }
            kafka.flush();
            assertThat(System.currentTimeMillis()).as("all sent before they are due").isLessThan(dueAt - 1_000);

            Map<String, Long> fast = collector.awaitArrivals(fastIds, Duration.ofSeconds(30));
            Map<String, Long> slow = collector.awaitArrivals(slowIds, Duration.ofSeconds(60));

            assertThat(slow).as("every message of the limited target arrives").hasSize(slowCount);
            assertThat(fast).as("every message of the other target arrives").hasSize(fastCount);
            long fastLatest = fast.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            assertThat(fastLatest - dueAt).as("latest arrival of the unlimited target after their due time, ms").isLessThan(1_500);

            long slowLatest = slow.values().stream().mapToLong(Long::longValue).max().orElseThrow();
            double seconds = (slowLatest - dueAt) / 1000.0;
            double rate = slowCount / seconds;
            assertThat(rate).as("arrival rate of the limited target (%d messages in %.1f s), per second", slowCount, seconds)
                    .isBetween(RATE * 0.6, RATE * 1.3);
            long inFirstTwoSeconds = slow.values().stream().filter(at -> at < dueAt + 2_000).count();
            assertThat(inFirstTwoSeconds).as("arrivals in the first two seconds after the due time").isLessThanOrEqualTo(2 * RATE * 13 / 10);

            Map<String, String> dueHeaders = new HashMap<>();
            for (Received r : collector.received()) {
                if (r.record().topic().equals(SLOW)) {
                    dueHeaders.put(r.messageId(), r.header("x-delay-due-at"));
                }
            }
            assertThat(dueHeaders.values()).as("x-delay-due-at of every message, the deferred ones too: the due time it was given")
                    .containsOnly(Long.toString(dueAt));
        }
    }

    @Test
    void aMessageLaterThanItsPatternAllowsIsDeadLetteredAsExpiredWhileAPunctualOneIsDelivered() {
        kafka.send(INBOUND, null, bytes("late"), Map.of("x-deliver-at", Long.toString(System.currentTimeMillis() - 60_000),
                "x-target", "kafka:" + LATE, "x-message-id", "too-late"));
        kafka.send(INBOUND, null, bytes("on time"), Map.of("x-delay", "200", "x-target", "kafka:" + LATE, "x-message-id", "on-time"));
        kafka.flush();

        List<Received> deadLetters = kafka.consume(DLQ, 1, Duration.ofSeconds(30));
        List<Received> delivered = kafka.consume(LATE, 1, Duration.ofSeconds(30), Duration.ofSeconds(2));

        assertThat(delivered).extracting(Received::messageId).containsExactly("on-time");
        assertThat(deadLetters).hasSize(1);
        Received dead = deadLetters.get(0);
        assertThat(dead.messageId()).isEqualTo("too-late");
        assertThat(dead.header("x-dead-letter-reason")).isEqualTo("expired");
        assertThat(dead.header("x-dead-letter-detail")).contains("max-lateness-ms (5000 ms)");
        assertThat(dead.header("x-target")).isEqualTo("kafka:" + LATE);
        assertThat(dead.record().value()).isEqualTo(bytes("late"));
    }
}
