package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bridge on Redis through Sentinel (a master, a replica, three sentinels of the test's own), with
 * bridge.redis.wait-replicas=1: the master is killed with SIGKILL, Sentinel promotes the replica, the bridge follows
 * it, and nothing it acknowledged upstream is lost.
 */
class SentinelFailoverTest {

    private static final int MESSAGES = 2_000;
    private static final int MAX_IN_FLIGHT = 300;

    @Test
    void masterKilledWhileMessagesFlowInAndFallDueLosesNothing() throws Exception {
        String name = "sentinel-flow";
        try (RedisSentinelGroup redis = new RedisSentinelGroup(name);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = FailoverBridge.sentinelSettings(name, redis, "1", MAX_IN_FLIGHT);
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = name + ".target";
            kafka.createTopics(2, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                List<String> sent = new ArrayList<>();
                Random random = new Random(13);
                int deliveredBeforeKill = 0;
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "s" + i;
                    sent.add(id);
                    kafka.send(inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(random.nextInt(3_000)), "x-target", "kafka:" + target, "x-message-id", id));
                    if (i % 100 == 99) {
                        kafka.flush();
                        Thread.sleep(200); // about 500 messages a second, falling due all along
                    }
                    if (i == MESSAGES / 2) {
                        deliveredBeforeKill = collector.distinct(Received::messageId);
                        redis.master().crash();
                    }
                }
                kafka.flush();
                redis.awaitReplicaPromoted(Duration.ofSeconds(30));
                // the killed master comes back empty; Sentinel makes it the new master's replica, so WAIT 1 can be met again
                redis.master().start();

                collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(90));
                Thread.sleep(1_000);
                DeliveryReport report = DeliveryReport.of("SentinelFailoverTest (" + deliveredBeforeKill + " delivered before the kill)",
                        sent, collector.received(), target);
                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                // duplicates come from deliveries whose settling in Redis the failover lost: at most what was in flight
                assertThat(report.duplicates()).isLessThanOrEqualTo(MAX_IN_FLIGHT);
            }
        }
    }

    @Test
    void batchNoReplicaConfirmedIsWrittenAgainToThePromotedReplicaAndDelivered() throws Exception {
        String name = "sentinel-unconfirmed";
        try (RedisSentinelGroup redis = new RedisSentinelGroup(name);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = FailoverBridge.sentinelSettings(name, redis, "1", MAX_IN_FLIGHT);
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = name + ".target";
            kafka.createTopics(1, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(inbound, null, "warm".getBytes(), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", "warm"));
                collector.awaitDistinct(1, Received::messageId, Duration.ofSeconds(30));

                // the master takes the write, the replica never gets it (frozen, and its link cut first, so that nothing
                // is left in its socket buffer to read on waking): the batch stays unacknowledged
                redis.replica().freeze();
                assertThat(RedisSentinelGroup.cli(redis.master().port(), "CLIENT", "KILL", "TYPE", "replica").strip()).isEqualTo("1");
                // due well after the failover, so that the old master cannot deliver it before it dies
                kafka.sendAndWait(inbound, null, "only on the old master".getBytes(),
                        Map.of("x-delay", "25000", "x-target", "kafka:" + target, "x-message-id", "unconfirmed"));
                Thread.sleep(2_000);
                redis.master().crash();
                redis.replica().thaw();
                redis.awaitReplicaPromoted(Duration.ofSeconds(30));
                redis.master().start();

                // acknowledged on the old master's word, the message would be gone now; held, it is stored again and delivered
                collector.awaitDistinct(2, Received::messageId, Duration.ofSeconds(90));
                assertThat(collector.received()).extracting(Received::messageId).contains("unconfirmed");
            }
        }
    }
}
