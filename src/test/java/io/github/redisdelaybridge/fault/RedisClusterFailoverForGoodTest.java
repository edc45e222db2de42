package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bridge on a Redis Cluster of three masters, each with a replica, with bridge.redis.wait-replicas=auto: one master is
 * killed with SIGKILL while messages flow in and fall due and never comes back, so the shard's promoted replica has no
 * replica. The barrier waits for that shard's replicas alone (none now) and for the others' as before: ingest goes on
 * within 10 s of the kill, and every message sent is delivered.
 */
class RedisClusterFailoverForGoodTest {

    private static final int MESSAGES = 1_500;
    private static final int MAX_IN_FLIGHT = 300;
    private static final long RESUMED_WITHIN_MS = 10_000;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void ingestGoesOnOnAShardWithoutReplicaAndNothingAcknowledgedIsLost() throws Exception {
        String name = "cluster-for-good";
        try (RedisClusterProcesses cluster = new RedisClusterProcesses(3, 1, 2_000);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = BridgeInstance.settings(name, cluster.uris());
            settings.put("bridge.redis.cluster", "true");
            settings.put("bridge.redis.slots", "6");
            settings.put("bridge.redis.wait-replicas", "auto");
            settings.put("bridge.redis.wait-timeout-ms", "500");
            settings.put("bridge.redis.command-timeout-ms", "2000");
            settings.put("bridge.lease.duration-ms", "5000");
            settings.put("bridge.lease.reap-interval-ms", "1000");
            settings.put("bridge.dispatch.publish-timeout-ms", "4000");
            settings.put("bridge.dispatch.max-in-flight", Integer.toString(MAX_IN_FLIGHT));
            settings.put("bridge.dispatch.batch-size", "100");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = name + ".target";
            kafka.createTopics(2, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                List<String> sent = new ArrayList<>();
                Set<String> sentAfterKill = new HashSet<>();
                Random random = new Random(31);
                long killedAt = 0;
                int killed = -1;
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "k" + i;
                    if (killedAt > 0) {
                        sentAfterKill.add(id);
                    }
                    // due within 3 s before the kill, at once after it: the first arrival of those tells when ingest is back
                    send(kafka, inbound, target, sent, id, killedAt > 0 ? 0 : random.nextInt(3_000));
                    if (i % 100 == 99) {
                        kafka.flush();
                        Thread.sleep(200); // about 500 messages a second, falling due all along
                    }
                    if (i == MESSAGES / 2) {
                        kafka.flush();
                        killed = cluster.masterPorts().get(0);
                        cluster.crash(killed); // for good: never restarted
                        killedAt = System.currentTimeMillis();
                    }
                }
                kafka.flush();
                cluster.awaitFailover(killed, Duration.ofSeconds(60));

                collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(60));
                Thread.sleep(1_000);
                long firstAfterKill = collector.received().stream().filter(r -> sentAfterKill.contains(r.messageId()))
                        .mapToLong(Received::receivedAtMs).min().orElse(Long.MAX_VALUE);
                DeliveryReport report = DeliveryReport.of("RedisClusterFailoverForGoodTest (ingest back " + (firstAfterKill - killedAt)
                        + " ms after the kill)", sent, collector.received(), target);
                assertThat(report.missing()).as("messages sent and never delivered").isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(report.duplicates()).isLessThanOrEqualTo(MAX_IN_FLIGHT);
                assertThat(firstAfterKill - killedAt).as("ms from the kill to the first delivery of a message sent after it")
                        .isLessThanOrEqualTo(RESUMED_WITHIN_MS);
            }
        }
    }

    private static void send(KafkaTestClient kafka, String inbound, String target, List<String> sent, String id, int delayMs) {
        sent.add(id);
        kafka.send(inbound, null, ("payload " + id).getBytes(),
                Map.of("x-delay", Integer.toString(delayMs), "x-target", "kafka:" + target, "x-message-id", id));
    }
}
