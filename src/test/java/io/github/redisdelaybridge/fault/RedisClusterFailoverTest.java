package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bridge on a Redis Cluster of three masters, each with a replica (six redis-server processes of the test's own), with
 * bridge.redis.wait-replicas=1: one master is killed with SIGKILL while messages flow in and fall due, the cluster promotes
 * its replica (node timeout 2 s), the bridge follows the new topology, and nothing it acknowledged upstream is lost;
 * duplicates (deliveries whose settling the failover lost) stay within what was in flight. Sent, delivered, duplicates and
 * missing are printed as in {@link SentinelFailoverTest}.
 */
class RedisClusterFailoverTest {

    private static final int MESSAGES = 1_500;
    private static final int MAX_IN_FLIGHT = 300;

    @Test
    @Timeout(value = 7, unit = TimeUnit.MINUTES)
    void masterKilledWhileMessagesFlowInAndFallDueLosesNothing() throws Exception {
        String name = "cluster-failover";
        try (RedisClusterProcesses cluster = new RedisClusterProcesses(3, 1, 2_000);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = FailoverBridge.clusterSettings(name, cluster, "1", MAX_IN_FLIGHT);
            try (FailoverBridge bridge = FailoverBridge.start(kafka, name, settings)) {
                List<String> sent = new ArrayList<>();
                Random random = new Random(17);
                int deliveredBeforeKill = 0;
                int killed = -1;
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "c" + i;
                    sent.add(id);
                    kafka.send(bridge.inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(random.nextInt(3_000)), "x-target", "kafka:" + bridge.target, "x-message-id", id));
                    if (i % 100 == 99) {
                        kafka.flush();
                        Thread.sleep(200); // about 500 messages a second, falling due all along
                    }
                    if (i == MESSAGES / 2) {
                        deliveredBeforeKill = bridge.collector.distinct(Received::messageId);
                        killed = cluster.masterPorts().get(0);
                        cluster.crash(killed);
                    }
                }
                kafka.flush();
                cluster.awaitFailover(killed, Duration.ofSeconds(60));
                // back with its cluster config, the killed node becomes the promoted replica's replica: WAIT 1 can be met again
                cluster.restart(killed);

                bridge.collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(180));
                Thread.sleep(1_000);
                DeliveryReport report = DeliveryReport.of("RedisClusterFailoverTest (" + deliveredBeforeKill + " delivered before the kill)",
                        sent, bridge.collector.received(), bridge.target);
                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(report.duplicates()).isLessThanOrEqualTo(MAX_IN_FLIGHT);
            }
        }
    }
}
