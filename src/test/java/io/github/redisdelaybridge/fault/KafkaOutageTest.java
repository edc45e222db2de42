package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.ChildKafka;
import io.github.redisdelaybridge.testkit.ChildProcess;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Kafka broker stops answering for 10 s (frozen with SIGSTOP) while messages fall due: publishes
 * fail or stall, are retried, and everything is delivered once the broker is back.
 */
class KafkaOutageTest {

    private static final String NAME = "kafka-outage";
    private static final int MESSAGES = 2_000;

    @Test
    void brokerUnreachableForTenSecondsWhileMessagesFallDue() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        try (ChildProcess broker = ChildKafka.start(NAME + "-broker")) {
            String bootstrap = ChildKafka.bootstrapOf(broker);
            Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
            settings.put("bridge.kafka.bootstrap-servers", bootstrap);
            settings.put("bridge.retry.base-ms", "500");
            settings.put("bridge.retry.max-ms", "4000");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = NAME + ".target";
            try (KafkaTestClient kafka = new KafkaTestClient(bootstrap);
                 RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
                kafka.createTopics(2, inbound, target, settings.get("bridge.dead-letter.kafka-topic"));
                try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                    List<String> sent = new ArrayList<>();
                    for (int i = 0; i < MESSAGES; i++) {
                        String id = "o" + i;
                        sent.add(id);
                        kafka.send(inbound, null, ("payload " + i).getBytes(),
                                Map.of("x-delay", Integer.toString(3_000 + (i % 4_000)), "x-target", "kafka:" + target, "x-message-id", id));
                    }
                    kafka.flush();
                    assertThat(RedisInspector.awaitValue(redis::pending, MESSAGES, Duration.ofSeconds(30))).isEqualTo(MESSAGES);

                    broker.freeze();
                    Thread.sleep(10_000);
                    long stillPending = redis.pending() + redis.inFlight();
                    broker.thaw();

                    try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"))) {
                        collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(120));
                        Thread.sleep(1_000);
                        List<Received> received = collector.received();
                        DeliveryReport report = DeliveryReport.of("KafkaOutageTest (" + stillPending + " waiting when the broker came back)", sent, received, target);

                        assertThat(stillPending).as("messages fell due during the outage and waited").isPositive();
                        assertThat(report.missing()).isZero();
                        assertThat(report.deadLettered()).isZero();
                    }
                }
            }
        }
    }

}
