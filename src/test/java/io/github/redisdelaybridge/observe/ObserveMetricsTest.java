package io.github.redisdelaybridge.observe;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.MetricTable;
import io.github.redisdelaybridge.testkit.PrometheusScrape;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scrapes /observe/metrics of a running bridge (Kafka and RabbitMQ, the local Redis) after a known workload: every metric
 * of docs/observe.md's table is there with its documented type, every {@code bridge_} metric there is documented, and the
 * values are what the workload makes them: 100 messages due in an hour are pending and due within the hour, none overdue.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ObserveMetricsTest {

    private static final String NAME = "observe-metrics";
    private static final String INBOUND = NAME + ".inbound";
    private static final String KAFKA_TARGET = NAME + ".target";
    private static final String RABBIT_TARGET = NAME + ".target";
    private static final long HOUR_MS = 3_600_000;

    private static KafkaTestClient kafka;
    private static RabbitMqTestClient rabbitMq;
    private static BridgeInstance bridge;
    private static PrometheusScrape scrape;

    @BeforeAll
    static void runTheWorkload() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, KAFKA_TARGET, NAME + ".dlq");
        rabbitMq = new RabbitMqTestClient();
        rabbitMq.declareQueue(RABBIT_TARGET);
        rabbitMq.ensureQueue(INBOUND);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.metrics.cache-ms", "200");
        // a configured target pattern: its per-pattern counters appear
        settings.put("bridge.targets.limits", "observed");
        settings.put("bridge.targets.observed.pattern", "kafka:" + KAFKA_TARGET);
        settings.put("bridge.targets.observed.max-lateness-ms", "3600000");
        bridge = BridgeInstance.start(settings);
        awaitReady();

        // 100 due in an hour: 99 through Kafka, one through RabbitMQ
        rabbitMq.publishToQueue(INBOUND, Map.of("x-delay", HOUR_MS, "x-target", "kafka:" + KAFKA_TARGET, "x-message-id", NAME + "-later-99"),
                bytes("later 99"));
        for (int i = 0; i < 99; i++) {
            kafka.send(INBOUND, null, bytes("later " + i), Map.of("x-delay", Long.toString(HOUR_MS), "x-target", "kafka:" + KAFKA_TARGET,
                    "x-message-id", NAME + "-later-" + i));
        }
        kafka.flush();
        // the same message again (same id and payload): a duplicate of a pending message, not stored
        kafka.sendAndWait(INBOUND, null, bytes("later 0"), Map.of("x-delay", Long.toString(HOUR_MS), "x-target", "kafka:" + KAFKA_TARGET,
                "x-message-id", NAME + "-later-0"));
        for (int i = 0; i < 3; i++) {
            kafka.sendAndWait(INBOUND, null, bytes("now " + i), Map.of("x-delay", "0", "x-target", "kafka:" + KAFKA_TARGET));
        }
        for (int i = 0; i < 2; i++) {
            kafka.sendAndWait(INBOUND, null, bytes("rabbit " + i), Map.of("x-delay", "0", "x-target", "rabbitmq:/" + RABBIT_TARGET));
        }
        kafka.sendAndWait(INBOUND, null, bytes("no delay"), Map.of("x-target", "kafka:" + KAFKA_TARGET));
        assertThat(kafka.consume(KAFKA_TARGET, 3, Duration.ofSeconds(30))).hasSize(3);
        assertThat(rabbitMq.consume(RABBIT_TARGET, 2, Duration.ofSeconds(30))).hasSize(2);
        System.gc(); // the GC pause timer appears with the first pause after the binder started

        // counters move once a batch is confirmed, a moment after Redis holds it
        scrape = awaitScrape(s -> s.value("bridge_messages_pending") == 100 && s.value("bridge_dead_letters_stored") == 1
                && s.sum("bridge_messages_delivered_total", Map.of()) == 5 && s.value("bridge_messages_scheduled_total") >= 105
                && s.sum("bridge_messages_dead_lettered_total", Map.of()) >= 1 && s.hasSample("jvm_gc_pause_seconds_count"));
    }

    @AfterAll
    static void stop() {
        if (bridge != null) {
            bridge.close();
        }
        rabbitMq.deleteQueue(INBOUND);
        rabbitMq.deleteQueue(NAME + ".dlq");
        rabbitMq.close();
        kafka.close();
        LocalRedis.deleteKeys("test-" + NAME);
    }

    @Test
    void everyDocumentedMetricIsScrapedWithItsType() {
        Map<String, String> documented = MetricTable.read();
        assertThat(documented).as("rows of the table in " + MetricTable.DOCUMENT).hasSizeGreaterThan(40);
        SoftAssertions.assertSoftly(softly -> documented.forEach((name, type) ->
                softly.assertThat(scrape.typeOf(name)).as(name).isEqualTo(type)));
    }

    @Test
    void everyBridgeMetricScrapedIsDocumented() {
        TreeSet<String> undocumented = new TreeSet<>(scrape.types().keySet());
        undocumented.removeIf(name -> !name.startsWith("bridge_"));
        undocumented.removeAll(MetricTable.read().keySet());
        assertThat(undocumented).as("bridge_ metrics missing from the table in " + MetricTable.DOCUMENT).isEmpty();
    }

    @Test
    void clusterGaugesShowTheWorkload() {
        assertThat(scrape.value("bridge_messages_pending")).isEqualTo(100);
        assertThat(scrape.value("bridge_messages_due_soon", Map.of("within", "1h"))).isEqualTo(100);
        assertThat(scrape.value("bridge_messages_due_soon", Map.of("within", "10m"))).isZero();
        assertThat(scrape.value("bridge_messages_due_soon", Map.of("within", "1m"))).isZero();
        assertThat(scrape.value("bridge_messages_overdue")).isZero();
        assertThat(scrape.value("bridge_messages_overdue_oldest_age_seconds")).isZero();
        assertThat(scrape.value("bridge_messages_in_flight")).isZero();
        assertThat(scrape.value("bridge_dead_letters_stored")).isEqualTo(1);
    }

    @Test
    void perInstanceCountersShowTheWorkload() {
        assertThat(scrape.value("bridge_messages_scheduled_total")).isEqualTo(105);
        assertThat(scrape.value("bridge_messages_duplicate_total", Map.of("reason", "pending"))).isEqualTo(1);
        assertThat(scrape.value("bridge_messages_duplicate_total", Map.of("reason", "delivered"))).isZero();
        assertThat(scrape.value("bridge_messages_delivered_total", Map.of("kind", "kafka"))).isEqualTo(3);
        assertThat(scrape.value("bridge_messages_delivered_total", Map.of("kind", "rabbitmq"))).isEqualTo(2);
        assertThat(scrape.value("bridge_messages_dead_lettered_total", Map.of("reason", "missing-delay"))).isEqualTo(1);
        assertThat(scrape.value("bridge_retries_total", Map.of("reason", "publish-failed"))).isZero();
        assertThat(scrape.value("bridge_ready")).isEqualTo(1);
        assertThat(scrape.value("bridge_dispatch_stalled")).isZero();
        assertThat(scrape.value("bridge_dispatch_last_cycle_age_seconds")).isLessThan(10);
    }

    @Test
    void latenessIsAHistogramByKindWithSloBuckets() {
        assertThat(scrape.value("bridge_delivery_lateness_seconds_count", Map.of("kind", "kafka"))).isEqualTo(3);
        assertThat(scrape.value("bridge_delivery_lateness_seconds_count", Map.of("kind", "rabbitmq"))).isEqualTo(2);
        Map<String, Double> buckets = new TreeMap<>();
        scrape.samples("bridge_delivery_lateness_seconds_bucket").stream().filter(s -> s.labels().get("kind").equals("kafka"))
                .forEach(s -> buckets.put(s.labels().get("le"), s.value()));
        assertThat(buckets).containsKeys("0.001", "0.1", "1.0", "60.0", "+Inf");
        assertThat(buckets.get("+Inf")).isEqualTo(3);
        assertThat(buckets.get("60.0")).as("delivered within a minute of due").isEqualTo(3);
        assertThat(scrape.value("bridge_publish_duration_seconds_count", Map.of("kind", "rabbitmq"))).isEqualTo(2);
        assertThat(scrape.value("bridge_ingest_duration_seconds_count", Map.of("kind", "kafka"))).isPositive();
        assertThat(scrape.value("bridge_ingest_duration_seconds_count", Map.of("kind", "rabbitmq"))).isPositive();
        assertThat(scrape.value("bridge_script_duration_seconds_count", Map.of("script", "schedule"))).isPositive();
        assertThat(scrape.value("bridge_script_duration_seconds_count", Map.of("script", "gauges"))).isPositive();
        assertThat(scrape.sum("bridge_dispatch_claim_batch_size_count", Map.of())).isPositive();
    }

    @Test
    void noLabelCarriesAMessageIdOrTarget() {
        assertThat(scrape.text()).doesNotContain(NAME + "-later-").doesNotContain(KAFKA_TARGET + "\"").doesNotContain("rabbitmq:/");
    }

    private static void awaitReady() throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!bridge.httpGet("/observe/health/ready").startsWith("200")) {
            assertThat(System.currentTimeMillis()).as("ready within a minute").isLessThan(deadline);
            Thread.sleep(200);
        }
    }

    private static PrometheusScrape awaitScrape(Predicate<PrometheusScrape> done) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        PrometheusScrape last = PrometheusScrape.of(bridge);
        while (!done.test(last) && System.currentTimeMillis() < deadline) {
            Thread.sleep(300);
            last = PrometheusScrape.of(bridge);
        }
        return last;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
