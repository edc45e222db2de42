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
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * SIGKILL of the bridge (a JVM of its own) in the middle of 20,000 messages with mixed delays, then a
 * restart: nothing is missing, and duplicates are bounded by what was in flight at the kill.
 */
class BridgeCrashTest {

    private static final String NAME = "crash";
    private static final int MESSAGES = 20_000;
    private static final int MAX_IN_FLIGHT = 1_000;

    @Test
    void killedMidRunAndRestartedDeliversEverything() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.remove("camel.server.port");
        settings.remove("camel.management.port");
        settings.put("bridge.dispatch.batch-size", "250");
        settings.put("bridge.dispatch.max-in-flight", Integer.toString(MAX_IN_FLIGHT));
        settings.put("bridge.lease.duration-ms", "5000");
        settings.put("bridge.dispatch.publish-timeout-ms", "4000"); // the lease must outlast it
        settings.put("bridge.lease.reap-interval-ms", "1000");
        String inbound = settings.get("bridge.kafka.inbound-topics");
        String target = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(4, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"))) {
                ChildProcess first = BridgeProcess.start(NAME + "-first", settings);
                List<String> sent = new ArrayList<>();
                Random random = new Random(11);
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "c" + i;
                    sent.add(id);
                    kafka.send(inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(random.nextInt(6_000)), "x-target", "kafka:" + target, "x-message-id", id));
                }
                kafka.flush();
                collector.awaitDistinct(3_000, Received::messageId, Duration.ofSeconds(60));
                first.kill();
                int deliveredBeforeKill = collector.distinct(Received::messageId);

                try (ChildProcess second = BridgeProcess.start(NAME + "-second", settings)) {
                    collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(120));
                    Thread.sleep(2_000);
                }
                List<Received> received = collector.received();
                DeliveryReport report = DeliveryReport.of("BridgeCrashTest (killed after " + deliveredBeforeKill + " deliveries)", sent, received, target);

                assertThat(deliveredBeforeKill).as("the kill came mid-run").isLessThan(MESSAGES);
                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(report.duplicates()).as("duplicates at most the in-flight window").isLessThanOrEqualTo(MAX_IN_FLIGHT);
            }
        }
    }

}
