package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * With bridge.redis.wait-replicas=1, an inbound batch is acknowledged upstream only once a replica has it: while
 * the replica is frozen (SIGSTOP) the Kafka offset stays uncommitted and the bridge says why; once it is back,
 * the offset is committed and the message delivered. Without the barrier the offset would be committed at once,
 * though a failover at that moment would lose the message.
 */
class ReplicaBarrierTest {

    private static final String NAME = "replica-barrier";

    @Test
    void batchIsNotAcknowledgedUntilAReplicaHasIt() throws Exception {
        try (RedisServerProcess master = new RedisServerProcess(NAME + "-master", false).start();
             RedisServerProcess replica = new RedisServerProcess(NAME + "-replica", false).replicaOf(master).start();
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()));
             LogCapture logs = new LogCapture()) {
            Map<String, String> settings = BridgeInstance.settings(NAME, master.uri());
            settings.put("bridge.redis.wait-replicas", "1");
            settings.put("bridge.redis.wait-timeout-ms", "300");
            settings.put("bridge.redis.command-timeout-ms", "2000");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = NAME + ".target";
            kafka.createTopics(1, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target);
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                kafka.sendAndWait(inbound, null, "before".getBytes(), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", "b1"));
                collector.awaitDistinct(1, Received::messageId, Duration.ofSeconds(30));
                // the commit follows the store, and may reach the broker after the delivery does
                long commitDeadline = System.currentTimeMillis() + 20_000;
                while (committed(admin, settings.get("bridge.kafka.group-id"), inbound) < 1 && System.currentTimeMillis() < commitDeadline) {
                    Thread.sleep(100);
                }
                long committedBefore = committed(admin, settings.get("bridge.kafka.group-id"), inbound);
                assertThat(committedBefore).isEqualTo(1);

                replica.freeze();
                try {
                    kafka.sendAndWait(inbound, null, "held".getBytes(), Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", "h1"));
                    Thread.sleep(4_000);
                    assertThat(committed(admin, settings.get("bridge.kafka.group-id"), inbound))
                            .as("offset while no replica confirms the batch").isEqualTo(committedBefore);
                    assertThat(logs.messagesContaining("0 of 1 replicas acknowledged")).as("the bridge says why it holds the batch").isNotEmpty();
                } finally {
                    replica.thaw();
                }
                long deadline = System.currentTimeMillis() + 20_000;
                while (committed(admin, settings.get("bridge.kafka.group-id"), inbound) < 2 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                assertThat(committed(admin, settings.get("bridge.kafka.group-id"), inbound)).as("offset once the replica is back").isEqualTo(2);
                collector.awaitDistinct(2, Received::messageId, Duration.ofSeconds(20));
            }
        }
    }

    private static long committed(Admin admin, String group, String topic) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS)
                .get(new TopicPartition(topic, 0));
        return offset == null ? 0 : offset.offset();
    }
}
