package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The replica truly lacks the last writes when the master dies: its replication link runs through a relay the test
 * pauses (no byte either way, while the connection stays open: the master still counts the replica as connected), then
 * the master is killed and Sentinel promotes the replica. With bridge.redis.wait-replicas=auto the batches written
 * meanwhile are held (the replica never confirms them) and written again to the promoted replica: none is lost. With
 * wait-replicas=0 they were acknowledged on the master's word and are gone with it, which this test asserts too, so
 * that it shows what the barrier is for.
 */
class ReplicationWithheldFailoverTest {

    private static final int WITHHELD = 40;
    /** Due well after the kill, so that the old master cannot deliver them before it dies. */
    private static final long DELAY_MS = 8_000;

    @Test
    void withAutoTheBatchesTheReplicaLacksAreHeldAndNoneIsLost() throws Exception {
        DeliveryReport report = killMasterWhileReplicationIsWithheld("withheld-auto", "auto");
        assertThat(report.missing()).as("acknowledged messages lost with the master").isZero();
    }

    @Test
    void withoutWaitingForReplicasTheBatchesTheReplicaLacksAreLost() throws Exception {
        DeliveryReport report = killMasterWhileReplicationIsWithheld("withheld-none", "0");
        assertThat(report.missing()).as("acknowledged on the master's word, lost with it").isEqualTo(WITHHELD);
    }

    private static DeliveryReport killMasterWhileReplicationIsWithheld(String name, String waitReplicas) throws Exception {
        try (RedisSentinelGroup redis = new RedisSentinelGroup(name, true);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             LogCapture logs = new LogCapture()) {
            Map<String, String> settings = BridgeInstance.settings(name, redis.uri());
            settings.put("bridge.redis.wait-replicas", waitReplicas);
            settings.put("bridge.redis.wait-timeout-ms", "500");
            settings.put("bridge.redis.command-timeout-ms", "2000");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = name + ".target";
            kafka.createTopics(1, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target);
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(inbound, null, "warm".getBytes(), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", "warm"));
                collector.awaitDistinct(1, Received::messageId, Duration.ofSeconds(30));

                redis.replicationLink().pause();
                List<String> withheld = new ArrayList<>();
                for (int i = 0; i < WITHHELD; i++) {
                    String id = "w" + i;
                    withheld.add(id);
                    kafka.send(inbound, null, ("withheld " + i).getBytes(),
                            Map.of("x-delay", Long.toString(DELAY_MS), "x-target", "kafka:" + target, "x-message-id", id));
                }
                kafka.flush();
                Thread.sleep(2_000);
                assertThat(RedisSentinelGroup.cli(redis.replica().port(), "INFO", "replication"))
                        .as("the replica still replicates through the paused relay")
                        .contains("master_port:" + redis.replicationLink().port());
                if (waitReplicas.equals("auto")) {
                    assertThat(logs.messagesContaining("0 of 1 replicas acknowledged")).as("the batch is held, and the bridge says why")
                            .isNotEmpty();
                }
                redis.master().crash(); // for good, with the withheld writes
                redis.awaitReplicaPromoted(Duration.ofSeconds(30));

                // ingest goes on, after the held batches (one partition: in order), which were stored again by then and are due
                // at most DELAY_MS after it (a delay counts from when the message is stored)
                kafka.sendAndWait(inbound, null, "after".getBytes(), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", "after"));
                Map<String, Long> after = collector.awaitArrivals(List.of("after"), Duration.ofSeconds(30));
                assertThat(after).as("ingest goes on after the failover").containsKey("after");
                collector.awaitArrivals(withheld, Duration.ofMillis(after.get("after") + DELAY_MS + 3_000 - System.currentTimeMillis()));
                return DeliveryReport.of("ReplicationWithheldFailoverTest (wait-replicas=" + waitReplicas + ")", withheld,
                        collector.received(), target);
            }
        }
    }
}
