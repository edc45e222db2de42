package io.github.redisdelaybridge.fault;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A bridge killed with SIGKILL while it holds leases, and started again with the same bridge.instance-id, gives its
 * predecessor's leases back at once instead of waiting them out. The leases last 60 s; the messages are claimed a second
 * ahead of their due time (bridge.dispatch.claim-ahead-ms) and held in the bridge until due, and the kill comes within
 * that second: leased, not yet published, so nothing of them can reach the target before the restart. The latest of them
 * arrives within 5 s of the restarted bridge being ready, where waiting out the leases would take about a minute.
 */
class RestartLeaseTakeBackTest {

    private static final String NAME = "restart-leases";
    private static final int MESSAGES = 20;
    private static final long BOUND_AFTER_READY_MS = 5_000;
    /** Long enough for all of them to be stored before the first falls due. */
    private static final long DELAY_MS = 5_000;

    @Test
    void aRestartedInstanceGivesBackItsPredecessorsLeasesAtOnce() throws Exception {
        Map<String, String> settings = SameInstanceRestart.settings(NAME, 60_000, 50_000);
        settings.put("bridge.dispatch.claim-ahead-ms", "1000");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
            kafka.createTopics(1, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target)) {
                List<String> sent = new ArrayList<>();
                Set<String> leasedAtKill;
                try (ChildProcess first = BridgeProcess.start(NAME + "-first", settings)) {
                    for (int i = 0; i < MESSAGES; i++) {
                        String id = "leased-" + i;
                        sent.add(id);
                        kafka.send(inbound, bytes("k" + i), bytes("payload " + i),
                                Map.of("x-delay", Long.toString(DELAY_MS), "x-target", "kafka:" + target, "x-message-id", id));
                    }
                    kafka.flush();
                    assertThat(RedisInspector.awaitValue(redis::pending, MESSAGES, Duration.ofSeconds(30))).as("stored").isEqualTo(MESSAGES);
                    // claimed a second ahead of their due time: killed while the bridge holds them until due
                    assertThat(RedisInspector.awaitValue(redis::inFlight, MESSAGES, Duration.ofMillis(DELAY_MS + 30_000)))
                            .as("claimed ahead of their due time").isEqualTo(MESSAGES);
                    first.kill();
                    leasedAtKill = redis.leases().keySet();
                }
                assertThat(leasedAtKill).as("leased at the kill (pending %d, delivered %d)", redis.pending(),
                        collector.distinct(Received::messageId)).isNotEmpty();
                Thread.sleep(1_500);
                assertThat(collector.distinct(Received::messageId)).as("nothing published before the kill").isZero();

                long restartedAt = System.currentTimeMillis();
                try (ChildProcess second = BridgeProcess.start(NAME + "-second", settings)) {
                    long readyAt = System.currentTimeMillis();
                    Map<String, Long> arrivals = collector.awaitArrivals(leasedAtKill, Duration.ofSeconds(90));
                    assertThat(arrivals.keySet()).as("every leased message delivered").containsExactlyInAnyOrderElementsOf(leasedAtKill);
                    long latestAfterReady = Collections.max(arrivals.values()) - readyAt;
                    System.out.printf("RestartLeaseTakeBackTest: restarted bridge ready %d ms after its start; the latest of %d leased"
                            + " messages arrived %d ms after that%n", readyAt - restartedAt, leasedAtKill.size(), latestAfterReady);
                    assertThat(latestAfterReady).as("the latest leased message arrives within %d ms of the restarted bridge being ready"
                            + " (restart took %d ms)", BOUND_AFTER_READY_MS, readyAt - restartedAt).isLessThan(BOUND_AFTER_READY_MS);
                    assertThat(second.logText()).as("the take-back is logged with its count")
                            .contains("took back " + leasedAtKill.size() + " leases");
                    assertThat(collector.awaitArrivals(sent, Duration.ofSeconds(60)).keySet()).as("nothing lost")
                            .containsExactlyInAnyOrderElementsOf(sent);
                }
            }
        }
    }
}
