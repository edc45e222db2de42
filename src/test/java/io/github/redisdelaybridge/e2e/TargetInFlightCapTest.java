package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.TargetCollector;
import io.github.redisdelaybridge.testkit.TcpRelay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A target pattern's in-flight cap ({@code bridge.targets.<name>.max-in-flight}) end to end: the RabbitMQ broker of the
 * capped target receives every publish but confirms none (its answers are held by a relay), so each message the bridge
 * sends stays in flight. The broker then holds exactly the cap's worth of messages, whatever is due, while a Kafka target
 * flows; once the broker answers again, every message arrives, once each.
 */
class TargetInFlightCapTest {

    private static final String NAME = "in-flight-cap";
    private static final String QUEUE = NAME + ".capped";
    private static final String HEALTHY = NAME + ".healthy";
    private static final int CAP = 10;
    private static final int CAPPED = 200;

    @Test
    void aStalledTargetHoldsNoMoreThanItsCapInFlightWhileAnotherFlows() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient();
             TcpRelay relay = new TcpRelay(RabbitMqTestClient.HOST, RabbitMqTestClient.PORT)) {
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
            settings.put("bridge.rabbitmq.port", Integer.toString(relay.port()));
            settings.put("bridge.targets.limits", "capped");
            settings.put("bridge.targets.capped.pattern", "rabbitmq:/" + NAME + ".*");
            settings.put("bridge.targets.capped.max-in-flight", Integer.toString(CAP));
            String inbound = settings.get("bridge.kafka.inbound-topics");
            kafka.createTopics(1, inbound, HEALTHY, settings.get("bridge.dead-letter.kafka-topic"));
            rabbit.declareQueue(QUEUE);
            rabbit.declareQueue(NAME + ".inbound");
            try (BridgeInstance bridge = BridgeInstance.start(settings);
                 TargetCollector healthy = new TargetCollector(kafka, HEALTHY)) {
                send(kafka, inbound, "warm-up", "rabbitmq:/" + QUEUE);
                assertThat(rabbit.consume(QUEUE, 1, Duration.ofSeconds(30))).as("the publishing connection is up").hasSize(1);

                relay.pauseAnswers();
                List<String> flowing = new ArrayList<>();
                for (int i = 0; i < CAPPED; i++) {
                    send(kafka, inbound, "capped-" + i, "rabbitmq:/" + QUEUE);
                    if (i % 4 == 0) {
                        flowing.add("healthy-" + i);
                        send(kafka, inbound, "healthy-" + i, "kafka:" + HEALTHY);
                    }
                }
                kafka.flush();

                assertThat(healthy.awaitArrivals(flowing, Duration.ofSeconds(30))).as("the other target flows").hasSize(flowing.size());
                Thread.sleep(1_000);
                assertThat(rabbit.readyNow(QUEUE)).as("published to the stalled broker and unconfirmed: the cap's worth").isEqualTo(CAP);

                relay.resume();
                List<RabbitMqTestClient.Received> delivered = rabbit.consume(QUEUE, CAPPED, Duration.ofSeconds(60), Duration.ofSeconds(2));
                assertThat(delivered).extracting(message -> message.headerText("x-message-id")).as("every message once")
                        .hasSize(CAPPED).doesNotHaveDuplicates();
            }
        }
    }

    private static void send(KafkaTestClient kafka, String inbound, String id, String target) {
        kafka.send(inbound, null, bytes(id), Map.of("x-delay", "0", "x-target", target, "x-message-id", id));
    }
}
