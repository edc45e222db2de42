package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.PrometheusScrape;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every inbound message the bridge does not store because its id is taken is counted in
 * {@code bridge_messages_not_stored_total} by why: a copy of a pending message, an id delivered within the dedupe window,
 * an id cancelled within the cancel window. One of each, through Kafka, the local Redis and a running bridge.
 */
class NotStoredMetricTest {

    private static final String NAME = "not-stored-metric";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String METRIC = "bridge_messages_not_stored_total";

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void eachMessageNotStoredIsCountedByReason() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, INBOUND, TARGET, NAME + ".dlq");
            try (BridgeInstance bridge = BridgeInstance.start(BridgeInstance.settings(NAME, LocalRedis.URI))) {
                Map<String, String> later = Map.of("x-delay", "3600000", "x-target", "kafka:" + TARGET, "x-message-id", NAME + "-later");
                kafka.sendAndWait(INBOUND, null, bytes("later"), later);
                kafka.sendAndWait(INBOUND, null, bytes("later"), later);

                Map<String, String> now = Map.of("x-delay", "0", "x-target", "kafka:" + TARGET, "x-message-id", NAME + "-now");
                kafka.sendAndWait(INBOUND, null, bytes("now"), now);
                assertThat(kafka.consume(TARGET, 1, Duration.ofSeconds(30))).hasSize(1);
                kafka.sendAndWait(INBOUND, null, bytes("now"), now);

                kafka.sendAndWait(INBOUND, null, bytes(""), Map.of("x-control", "cancel", "x-message-id", NAME + "-cancelled"));
                awaitValue(bridge, "bridge_cancels_total", Map.of("outcome", "recorded", "via", "message"), 1);
                kafka.sendAndWait(INBOUND, null, bytes("cancelled"),
                        Map.of("x-delay", "0", "x-target", "kafka:" + TARGET, "x-message-id", NAME + "-cancelled"));

                awaitValue(bridge, METRIC, Map.of("reason", "cancelled-within-cancel-window"), 1);
                awaitValue(bridge, METRIC, Map.of("reason", "delivered-within-dedupe-window"), 1);
                PrometheusScrape scrape = PrometheusScrape.of(bridge);
                assertThat(scrape.value(METRIC, Map.of("reason", "pending-duplicate"))).isEqualTo(1);
                assertThat(scrape.value(METRIC, Map.of("reason", "delivered-within-dedupe-window"))).isEqualTo(1);
                assertThat(scrape.value(METRIC, Map.of("reason", "cancelled-within-cancel-window"))).isEqualTo(1);
            }
        }
    }

    private static void awaitValue(BridgeInstance bridge, String metric, Map<String, String> labels, double expected) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 30_000;
        double value = -1;
        while (System.currentTimeMillis() < deadline) {
            PrometheusScrape scrape = PrometheusScrape.of(bridge);
            value = scrape.hasSample(metric) ? scrape.sum(metric, labels) : -1;
            if (value >= expected) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(metric + labels + " is " + value + ", expected " + expected);
    }
}
