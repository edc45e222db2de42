package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two instances; one is killed while it holds leases on claimed messages. The survivor delivers
 * everything, the dead instance's messages once their lease has expired.
 */
class LeaseTakeoverTest {

    private static final String NAME = "lease-takeover";
    private static final int MESSAGES = 6_000;
    private static final long LEASE_MS = 3_000;

    @Test
    void survivorDeliversTheKilledInstancesClaimsAfterTheirLeaseExpires() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.lease.duration-ms", Long.toString(LEASE_MS));
        settings.put("bridge.dispatch.publish-timeout-ms", Long.toString(LEASE_MS - 1_000)); // the lease must outlast it
        settings.put("bridge.lease.reap-interval-ms", "500");
        settings.put("bridge.dispatch.batch-size", "200");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        Map<String, String> doomed = new LinkedHashMap<>(settings);
        doomed.remove("camel.server.port");
        doomed.remove("camel.management.port");
        doomed.put("bridge.instance-id", "doomed");
        Map<String, String> survivor = new LinkedHashMap<>(settings);
        survivor.put("bridge.instance-id", "survivor");

        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
            kafka.createTopics(2, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 ChildProcess doomedInstance = BridgeProcess.start(NAME + "-doomed", doomed)) {
                List<String> sent = new ArrayList<>();
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "l" + i;
                    sent.add(id);
                    kafka.send(inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(2_000 + i % 3_000), "x-target", "kafka:" + target, "x-message-id", id));
                }
                kafka.flush();

                // The survivor starts once the doomed instance holds leases, so the kill is sure to strand some.
                Map<String, Double> doomedLeases = freezeWhileHoldingLeases(doomedInstance, redis, Duration.ofSeconds(30));
                long heldByDoomed = doomedLeases.size();
                assertThat(heldByDoomed).as("the instance to be killed held leases").isPositive();
                try (BridgeInstance survivorInstance = BridgeInstance.start(survivor)) {
                    doomedInstance.kill();

                    collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(90));
                    Thread.sleep(1_000);
                }
                List<Received> received = collector.received();
                DeliveryReport report = DeliveryReport.of("LeaseTakeoverTest (" + heldByDoomed + " leased by the killed instance)", sent, received, target);

                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(report.duplicates()).as("at most the killed instance's in-flight claims").isLessThanOrEqualTo((int) heldByDoomed);
                assertThat(redis.stillHeld(doomedLeases)).isZero();
                // Each message the killed instance held came (again) only after its lease's deadline (epoch ms, this machine's
                // clock, as the receive times): judged per message, not from the kill, which a slow start of the survivor delays.
                Map<String, Long> lastReceived = new HashMap<>();
                received.forEach(r -> lastReceived.merge(r.messageId(), r.receivedAtMs(), Math::max));
                List<String> takenBeforeTheirLeaseEnded = doomedLeases.entrySet().stream()
                        .filter(lease -> lastReceived.getOrDefault(lease.getKey(), Long.MAX_VALUE) < lease.getValue().longValue())
                        .map(Map.Entry::getKey).toList();
                assertThat(takenBeforeTheirLeaseEnded).as("messages of the killed instance delivered before their lease expired").isEmpty();
            }
        }
    }

    /**
     * Freezes the instance at a moment it holds leases (retrying until it does); returns them (id -> lease
     * deadline). It is the only instance running yet, so every claim in flight is its own.
     */
    private static Map<String, Double> freezeWhileHoldingLeases(ChildProcess instance, RedisInspector redis, Duration timeout) throws Exception {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            if (redis.inFlight() > 0) {
                instance.freeze();
                Map<String, Double> held = redis.leases();
                if (!held.isEmpty()) {
                    return held;
                }
                instance.thaw();
            }
            Thread.sleep(1);
        }
        return Map.of();
    }

}
