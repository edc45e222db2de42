package io.github.redisdelaybridge.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The processes scenario's load generator, in a JVM of its own: what it publishes is on the topic with the delay
 * headers, its times are the publish's, and a paced load through a real bridge reports what arrived.
 */
class LoadGeneratorProcessTest {

    private static final String NAME = "bench-load";

    private static KafkaTestClient kafka;
    private static LoadGeneratorProcess load;

    @BeforeAll
    static void start() throws InterruptedException {
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        load = LoadGeneratorProcess.start(NAME, EmbeddedKafka.bootstrapServers());
    }

    @AfterAll
    static void stop() throws InterruptedException {
        load.close();
        kafka.close();
    }

    @Test
    void publishesEveryMessageWithItsDelayAndTargetAndTellsWhenItStartedAndWasAcked() throws Exception {
        String topic = NAME + ".published";
        kafka.createTopics(2, topic);
        long before = System.currentTimeMillis();

        LoadGenerator.Published published = load.publish(topic, 500, 60_000, NAME + ".somewhere").await();

        long after = System.currentTimeMillis();
        assertThat(published.startedMs()).isBetween(before, published.ackedMs());
        assertThat(published.ackedMs()).isLessThanOrEqualTo(after);
        List<Received> received = kafka.consume(topic, 500, Duration.ofSeconds(30));
        assertThat(received).hasSize(500);
        assertThat(received).allSatisfy(r -> {
            assertThat(r.header("x-delay")).isEqualTo("60000");
            assertThat(r.header("x-target")).isEqualTo("kafka:" + NAME + ".somewhere");
            assertThat(r.record().value()).isEqualTo(BenchEnvironment.newPayload());
        });
    }

    @Test
    void aPacedLoadThroughABridgeReportsEveryArrivalAndNoneEarly() throws Exception {
        String target = NAME + ".target";
        kafka.createTopics(3, NAME + ".inbound");
        kafka.createTopics(1, target);
        LocalRedis.deleteKeys("test-" + NAME);
        try (BridgeInstance bridge = BridgeInstance.start(BridgeInstance.settings(NAME, LocalRedis.URI))) {
            LoadGenerator.Arrivals arrivals = load.paced(NAME + ".inbound", 200, 2_000, 500, target, 0);

            assertThat(arrivals.sent()).isEqualTo(400);
            assertThat(arrivals.arrived()).isEqualTo(400);
            assertThat(arrivals.lateness().count()).isEqualTo(400);
            assertThat(arrivals.dueToSent().count()).isEqualTo(400);
            assertThat(arrivals.sentToReceived().count()).isEqualTo(400);
            assertThat(arrivals.lateness().countBelow(0)).isZero();
            assertThat(arrivals.lateness().max()).isLessThan(10_000);
        } finally {
            LocalRedis.deleteKeys("test-" + NAME);
        }
    }
}
