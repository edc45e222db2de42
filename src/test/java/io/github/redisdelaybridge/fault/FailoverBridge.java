package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.FailoverSettings;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A bridge while its Redis master is killed: its inbound and target topics (two partitions each), and a collector of what
 * the target and the dead-letter topic receive, to tell afterwards whether anything acknowledged was lost.
 */
final class FailoverBridge implements AutoCloseable {

    final String inbound;
    final String target;
    final TargetCollector collector;
    private final BridgeInstance bridge;

    private FailoverBridge(String inbound, String target, TargetCollector collector, BridgeInstance bridge) {
        this.inbound = inbound;
        this.target = target;
        this.collector = collector;
        this.bridge = bridge;
    }

    /** Settings for a bridge on a Redis Cluster, with the failover timings and at most {@code maxInFlight} in flight. */
    static Map<String, String> clusterSettings(String name, RedisClusterProcesses cluster, String waitReplicas, int maxInFlight) {
        Map<String, String> settings = BridgeInstance.settings(name, cluster.uris());
        settings.put("bridge.redis.cluster", "true");
        settings.put("bridge.redis.slots", "6");
        return failoverSettings(settings, waitReplicas, maxInFlight);
    }

    /** Settings for a bridge on a Sentinel-watched master, with the failover timings and at most {@code maxInFlight} in flight. */
    static Map<String, String> sentinelSettings(String name, RedisSentinelGroup redis, String waitReplicas, int maxInFlight) {
        return failoverSettings(BridgeInstance.settings(name, redis.uri()), waitReplicas, maxInFlight);
    }

    /** Bounds what is in flight, so that a test can say how many duplicates a failover may cost at most. */
    private static Map<String, String> failoverSettings(Map<String, String> settings, String waitReplicas, int maxInFlight) {
        FailoverSettings.apply(settings, waitReplicas);
        settings.put("bridge.dispatch.max-in-flight", Integer.toString(maxInFlight));
        settings.put("bridge.dispatch.batch-size", "100");
        return settings;
    }

    static FailoverBridge start(KafkaTestClient kafka, String name, Map<String, String> settings) {
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = name + ".target";
        kafka.createTopics(2, inbound, target);
        TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
        return new FailoverBridge(inbound, target, collector, BridgeInstance.start(settings));
    }

    /**
     * After a master killed for good: every message sent arrives (none dead-lettered, duplicates within what was in
     * flight), and the first of those sent after the kill arrives within {@code resumedWithinMs} of it.
     */
    void assertNothingLostAndIngestBack(String test, List<String> sent, Set<String> sentAfterKill, long killedAt,
            Duration deliveryTimeout, int maxInFlight, long resumedWithinMs) throws InterruptedException {
        collector.awaitDistinct(sent.size(), Received::messageId, deliveryTimeout);
        Thread.sleep(1_000);
        long firstAfterKill = collector.received().stream().filter(r -> sentAfterKill.contains(r.messageId()))
                .mapToLong(Received::receivedAtMs).min().orElse(Long.MAX_VALUE);
        DeliveryReport report = DeliveryReport.of(test + " (ingest back " + (firstAfterKill - killedAt) + " ms after the kill)",
                sent, collector.received(), target);
        assertThat(report.missing()).as("messages sent and never delivered").isZero();
        assertThat(report.deadLettered()).isZero();
        assertThat(report.duplicates()).isLessThanOrEqualTo(maxInFlight);
        assertThat(firstAfterKill - killedAt).as("ms from the kill to the first delivery of a message sent after it")
                .isLessThanOrEqualTo(resumedWithinMs);
    }

    @Override
    public void close() throws Exception {
        try (collector) {
            bridge.close();
        }
    }
}
