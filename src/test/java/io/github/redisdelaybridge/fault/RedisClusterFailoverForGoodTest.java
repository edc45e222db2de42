package io.github.redisdelaybridge.fault;


import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
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
            Map<String, String> settings = FailoverBridge.clusterSettings(name, cluster, "auto", MAX_IN_FLIGHT);
            try (FailoverBridge bridge = FailoverBridge.start(kafka, name, settings)) {
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
                    send(kafka, bridge.inbound, bridge.target, sent, id, killedAt > 0 ? 0 : random.nextInt(3_000));
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

                bridge.assertNothingLostAndIngestBack("RedisClusterFailoverForGoodTest", sent, sentAfterKill, killedAt, Duration.ofSeconds(60), MAX_IN_FLIGHT,
                        RESUMED_WITHIN_MS);
            }
        }
    }

    private static void send(KafkaTestClient kafka, String inbound, String target, List<String> sent, String id, int delayMs) {
        sent.add(id);
        kafka.send(inbound, null, ("payload " + id).getBytes(),
                Map.of("x-delay", Integer.toString(delayMs), "x-target", "kafka:" + target, "x-message-id", id));
    }
}
