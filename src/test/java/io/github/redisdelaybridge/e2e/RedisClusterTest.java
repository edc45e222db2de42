package io.github.redisdelaybridge.e2e;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Three bridge instances on a Redis Cluster of three masters: every message is delivered exactly once,
 * and the slots spread the keys over all masters.
 */
class RedisClusterTest {

    private static final String NAME = "cluster";
    private static final int MESSAGES = 3_000;

    @Test
    void threeInstancesOnThreeMastersDeliverEverythingOnce() throws Exception {
        try (RedisClusterProcesses cluster = new RedisClusterProcesses(3);
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = BridgeInstance.settings(NAME, cluster.uris());
            settings.put("bridge.redis.cluster", "true");
            settings.put("bridge.redis.slots", "12");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = NAME + ".target";
            kafka.createTopics(6, inbound);
            kafka.createTopics(3, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 BridgeInstance first = BridgeInstance.start(instance(settings, "c1"));
                 BridgeInstance second = BridgeInstance.start(instance(settings, "c2"));
                 BridgeInstance third = BridgeInstance.start(instance(settings, "c3"))) {
                List<String> sent = new ArrayList<>();
                Random random = new Random(3);
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "cl" + i;
                    sent.add(id);
                    kafka.send(inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(1_000 + random.nextInt(2_000)), "x-target", "kafka:" + target, "x-message-id", id));
                }
                kafka.flush();
                Thread.sleep(500);
                List<Long> keysPerMaster = cluster.keysPerMaster();

                collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(60));
                Thread.sleep(2_000);
                List<Received> received = collector.received();
                DeliveryReport report = DeliveryReport.of("RedisClusterTest (keys per master while pending: " + keysPerMaster + ")", sent, received, target);

                assertThat(report.missing()).isZero();
                assertThat(report.duplicates()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(keysPerMaster).as("every master holds some slots' keys").allMatch(count -> count > 0);
            }
        }
    }

    private static Map<String, String> instance(Map<String, String> settings, String id) {
        Map<String, String> copy = new LinkedHashMap<>(settings);
        copy.put("bridge.instance-id", id);
        String port = Integer.toString(io.github.redisdelaybridge.testkit.FreePorts.next());
        copy.put("camel.server.port", port);
        copy.put("camel.management.port", port);
        return copy;
    }

}
