package io.github.redisdelaybridge.fault;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

/**
 * A bridge killed with SIGKILL while it holds leases, and started again with the same bridge.instance-id, gives its
 * predecessor's leases back at once instead of waiting them out. The leases last 60 s; the target topic asks for two
 * in-sync replicas of a single broker, so every publish waits (the producer retries until its delivery timeout) and the
 * claimed messages stay in flight until the kill. The topic is then made writable and the bridge restarted: the latest
 * message arrives within 5 s of the restarted bridge being ready, where waiting out the leases would take about a minute.
 */
class RestartLeaseTakeBackTest {

    private static final String NAME = "restart-leases";
    private static final int MESSAGES = 20;
    private static final long BOUND_AFTER_READY_MS = 5_000;

    @Test
    void aRestartedInstanceGivesBackItsPredecessorsLeasesAtOnce() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.remove("camel.server.port");
        settings.remove("camel.management.port");
        settings.put("bridge.instance-id", NAME + "-0");
        settings.put("bridge.lease.duration-ms", "60000");
        settings.put("bridge.dispatch.publish-timeout-ms", "50000");
        settings.put("bridge.lease.reap-interval-ms", "1000");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             Admin admin = Admin.create(Map.of("bootstrap.servers", EmbeddedKafka.bootstrapServers()));
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
            kafka.createTopics(1, inbound);
            // one broker cannot have two in-sync replicas: every acks=all publish to it waits, retried by the producer
            admin.createTopics(List.of(new NewTopic(target, 1, (short) 1).configs(Map.of("min.insync.replicas", "2")))).all().get();
            try (TargetCollector collector = new TargetCollector(kafka, target)) {
                List<String> sent = new ArrayList<>();
                long inFlightAtKill;
                try (ChildProcess first = BridgeProcess.start(NAME + "-first", settings)) {
                    for (int i = 0; i < MESSAGES; i++) {
                        String id = "leased-" + i;
                        sent.add(id);
                        kafka.send(inbound, bytes("k" + i), bytes("payload " + i),
                                Map.of("x-delay", "0", "x-target", "kafka:" + target, "x-message-id", id));
                    }
                    kafka.flush();
                    assertThat(RedisInspector.awaitValue(redis::inFlight, MESSAGES, Duration.ofSeconds(30)))
                            .as("messages claimed and held by the waiting publishes").isEqualTo(MESSAGES);
                    first.kill();
                    inFlightAtKill = redis.inFlight();
                }
                assertThat(inFlightAtKill).as("leased at the kill").isEqualTo(MESSAGES);
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, target),
                        List.of(new AlterConfigOp(new ConfigEntry("min.insync.replicas", "1"), AlterConfigOp.OpType.SET)))).all().get();

                long restartedAt = System.currentTimeMillis();
                try (ChildProcess second = BridgeProcess.start(NAME + "-second", settings)) {
                    long readyAt = System.currentTimeMillis();
                    Map<String, Long> arrivals = collector.awaitArrivals(sent, Duration.ofSeconds(90));
                    assertThat(arrivals.keySet()).as("every leased message delivered").containsExactlyInAnyOrderElementsOf(Set.copyOf(sent));
                    long latestAfterReady = Collections.max(arrivals.values()) - readyAt;
                    System.out.printf("RestartLeaseTakeBackTest: restarted bridge ready %d ms after its start; the latest of %d leased"
                            + " messages arrived %d ms after that%n", readyAt - restartedAt, inFlightAtKill, latestAfterReady);
                    assertThat(latestAfterReady).as("the latest leased message arrives within %d ms of the restarted bridge being ready"
                            + " (restart took %d ms)", BOUND_AFTER_READY_MS, readyAt - restartedAt).isLessThan(BOUND_AFTER_READY_MS);
                    assertThat(second.logText()).as("the take-back is logged with its count")
                            .contains("took back " + MESSAGES + " leases");
                }
            }
        }
    }
}
