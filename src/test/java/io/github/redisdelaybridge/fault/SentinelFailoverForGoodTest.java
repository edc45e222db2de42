package io.github.redisdelaybridge.fault;


import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.RedisSentinelGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bridge on Redis through Sentinel with bridge.redis.wait-replicas=auto: the master is killed with SIGKILL while
 * messages flow in and fall due, Sentinel promotes the replica, and the old master never comes back, so the new master has
 * no replica. Ingest goes on within 10 s of the kill (the first message sent after it is delivered by then), and every
 * message sent is delivered: none the bridge acknowledged is lost.
 */
class SentinelFailoverForGoodTest {

    private static final int MESSAGES = 1_500;
    private static final int MAX_IN_FLIGHT = 300;
    private static final long RESUMED_WITHIN_MS = 10_000;

    @Test
    void ingestGoesOnWithinSecondsOnAMasterWithoutReplicaAndNothingAcknowledgedIsLost() throws Exception {
        String name = "sentinel-for-good";
        try (RedisSentinelGroup redis = new RedisSentinelGroup(name);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = FailoverBridge.sentinelSettings(name, redis, "auto", MAX_IN_FLIGHT);
            try (FailoverBridge bridge = FailoverBridge.start(kafka, name, settings)) {
                List<String> sent = new ArrayList<>();
                Set<String> sentAfterKill = new HashSet<>();
                Random random = new Random(29);
                long killedAt = 0;
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "g" + i;
                    sent.add(id);
                    if (killedAt > 0) {
                        sentAfterKill.add(id);
                    }
                    // due within 2 s before the kill, at once after it: the first arrival of those tells when ingest is back
                    String delay = killedAt > 0 ? "0" : Integer.toString(random.nextInt(2_000));
                    kafka.send(bridge.inbound, null, ("payload " + i).getBytes(), Map.of("x-delay", delay, "x-target", "kafka:" + bridge.target, "x-message-id", id));
                    if (i % 100 == 99) {
                        kafka.flush();
                        Thread.sleep(200); // about 500 messages a second
                    }
                    if (i == MESSAGES / 2) {
                        kafka.flush();
                        redis.master().crash(); // for good: it is never started again
                        killedAt = System.currentTimeMillis();
                    }
                }
                kafka.flush();
                redis.awaitReplicaPromoted(Duration.ofSeconds(30));

                bridge.assertNothingLostAndIngestBack("SentinelFailoverForGoodTest", sent, sentAfterKill, killedAt, Duration.ofSeconds(45), MAX_IN_FLIGHT,
                        RESUMED_WITHIN_MS);
            }
        }
    }
}
