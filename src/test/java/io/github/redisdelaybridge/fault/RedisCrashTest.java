package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.TargetCollector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Redis (append-only, fsync always) is killed in the middle of a run and restarted: inbound batches are
 * held, dispatching pauses, both resume by themselves, and nothing is missing.
 */
class RedisCrashTest {

    private static final String NAME = "redis-crash";
    private static final int MESSAGES = 5_000;

    @Test
    void redisKilledAndRestartedMidRunLosesNothing() throws Exception {
        try (RedisServerProcess redis = new RedisServerProcess(NAME, true).start();
             KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            Map<String, String> settings = BridgeInstance.settings(NAME, redis.uri());
            settings.put("bridge.lease.duration-ms", "5000");
            settings.put("bridge.dispatch.publish-timeout-ms", "4000"); // the lease must outlast it
            settings.put("bridge.lease.reap-interval-ms", "1000");
            settings.put("bridge.redis.command-timeout-ms", "1000");
            settings.put("bridge.redis.wait-timeout-ms", "500"); // below the command timeout, as the settings check demands
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String target = NAME + ".target";
            kafka.createTopics(2, inbound, target);
            try (TargetCollector collector = new TargetCollector(kafka, target, settings.get("bridge.dead-letter.kafka-topic"));
                 BridgeInstance bridge = BridgeInstance.start(settings)) {
                List<String> sent = new ArrayList<>();
                int deliveredBeforeCrash = 0;
                Random random = new Random(5);
                for (int i = 0; i < MESSAGES; i++) {
                    String id = "r" + i;
                    sent.add(id);
                    kafka.send(inbound, null, ("payload " + i).getBytes(),
                            Map.of("x-delay", Integer.toString(random.nextInt(5_000)), "x-target", "kafka:" + target, "x-message-id", id));
                    if (i == MESSAGES / 2) {
                        kafka.flush();
                        Thread.sleep(2_000);
                        deliveredBeforeCrash = collector.distinct(Received::messageId);
                        redis.crash();
                    }
                }
                kafka.flush();
                Thread.sleep(3_000);
                String healthDuringOutage = health(settings);
                redis.start();

                collector.awaitDistinct(MESSAGES, Received::messageId, Duration.ofSeconds(90));
                Thread.sleep(1_000);
                List<Received> received = collector.received();
                DeliveryReport report = DeliveryReport.of("RedisCrashTest (" + deliveredBeforeCrash + " delivered before the crash)", sent, received, target);

                assertThat(healthDuringOutage).as("health while Redis is down").contains("DOWN").contains("redis");
                assertThat(health(settings)).as("health after Redis is back").startsWith("200").contains("UP");
                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(bridge.context().getRouteController().getRouteStatus("kafka-inbound").isStarted()).isTrue();
                assertThat(bridge.context().getRouteController().getRouteStatus("dispatch-due-messages").isStarted()).isTrue();
            }
        }
    }

    /** Status code and body of the bridge's health endpoint. */
    private static String health(Map<String, String> settings) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + settings.get("camel.server.port") + "/observe/health?exposureLevel=full")).build(),
                HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

}
