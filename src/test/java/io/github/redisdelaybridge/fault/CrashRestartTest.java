package io.github.redisdelaybridge.fault;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A bridge killed with SIGKILL and started again with the same bridge.instance-id consumes its inbound partitions again
 * at once: its consumers rejoin as the static members they were, instead of waiting for the dead members' session to
 * expire. The session timeout is set to Kafka's default, 45 s, so that an expiry cannot explain a quick resume; without
 * static membership the partitions would stay unconsumed until 45 s after the kill. Nothing is lost, and the only
 * duplicates are messages whose lease the killed instance held.
 */
class CrashRestartTest {

    private static final String NAME = "crash-restart";
    private static final int PARTITIONS = 4;
    private static final int BEFORE_KILL = 400;
    /** From the restarted bridge's "ready" line until every partition is consumed again; dynamic membership takes 30 s and more. */
    private static final long RESUME_BOUND_MS = 10_000;

    @Test
    void killedAndRestartedWithTheSameInstanceIdItConsumesItsPartitionsAgainAtOnce() throws Exception {
        // leases the kill leaves behind come back within seconds
        Map<String, String> settings = SameInstanceRestart.settings(NAME, 5_000, 4_000);
        settings.put("bridge.kafka.session-timeout-ms", "45000");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
            kafka.createTopics(PARTITIONS, inbound);
            kafka.createTopics(1, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"))) {
                List<String> sent = new ArrayList<>();
                long inFlightAtKill;
                try (ChildProcess first = BridgeProcess.start(NAME + "-first", settings)) {
                    // due over 15 s, so that the kill comes while most are still pending, some leased
                    Random random = new Random(5);
                    for (int i = 0; i < BEFORE_KILL; i++) {
                        String id = "before-" + i;
                        sent.add(id);
                        kafka.send(inbound, bytes("k" + i), bytes("payload " + i),
                                Map.of("x-delay", Integer.toString(random.nextInt(15_000)), "x-target", "kafka:" + target, "x-message-id", id));
                    }
                    kafka.flush();
                    assertThat(collector.awaitDistinct(BEFORE_KILL / 4, Received::messageId, Duration.ofSeconds(60)))
                            .as("deliveries before the kill").isGreaterThanOrEqualTo(BEFORE_KILL / 4);
                    assertThat(kafka.groupMembers(NAME + "-bridge").keySet()).as("one static member per consumer")
                            .containsExactly(NAME + "-0-0", NAME + "-0-1", NAME + "-0-2");
                    first.kill();
                    inFlightAtKill = redis.inFlight();
                }
                int deliveredBeforeKill = collector.distinct(Received::messageId);

                // published while no bridge runs: waiting on every partition for the restarted one
                Set<String> waiting = new LinkedHashSet<>();
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    String id = "while-down-" + partition;
                    waiting.add(id);
                    kafka.sendAndWait(inbound, partition, null, bytes(id), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", id));
                }
                try (ChildProcess second = BridgeProcess.start(NAME + "-second", settings)) {
                    long readyAt = System.currentTimeMillis();
                    Set<String> afterRestart = new LinkedHashSet<>();
                    for (int partition = 0; partition < PARTITIONS; partition++) {
                        String id = "after-restart-" + partition;
                        afterRestart.add(id);
                        kafka.sendAndWait(inbound, partition, null, bytes(id), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", id));
                    }
                    Set<String> probes = new LinkedHashSet<>(waiting);
                    probes.addAll(afterRestart);
                    Map<String, Long> arrivals = collector.awaitArrivals(probes, Duration.ofSeconds(60));
                    assertThat(arrivals.keySet()).as("every partition consumed again").containsExactlyInAnyOrderElementsOf(probes);
                    long resumedMs = Collections.max(arrivals.values()) - readyAt;
                    System.out.printf("CrashRestartTest: every inbound partition consumed again %d ms after the restarted bridge was ready"
                            + " (%d delivered before the kill, %d leased at the kill)%n", resumedMs, deliveredBeforeKill, inFlightAtKill);
                    assertThat(resumedMs).as("partitions consumed again within %d ms of the restart", RESUME_BOUND_MS)
                            .isLessThan(RESUME_BOUND_MS);

                    sent.addAll(probes);
                    collector.awaitDistinct(sent.size(), Received::messageId, Duration.ofSeconds(60));
                    Thread.sleep(2_000); // late copies, if any, are counted too
                }
                DeliveryReport report = DeliveryReport.of("CrashRestartTest (" + inFlightAtKill + " leased at the kill)", sent,
                        collector.received(), target);
                assertThat(deliveredBeforeKill).as("the kill came mid-run").isLessThan(BEFORE_KILL);
                assertThat(report.missing()).as("missing").isZero();
                assertThat(report.deadLettered()).as("dead-lettered").isZero();
                assertThat(report.duplicates()).as("duplicates: at most the messages leased at the kill").isLessThanOrEqualTo((int) inFlightAtKill);
            }
        }
    }
}
