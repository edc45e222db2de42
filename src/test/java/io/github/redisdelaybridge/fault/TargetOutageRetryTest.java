package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.AdminApiClient;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RedisInspector;
import io.github.redisdelaybridge.testkit.TcpRelay;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The target broker (RabbitMQ, reached through a relay that the test cuts, so the shared broker stays up for everyone
 * else) is down for far longer than the previous release's attempt budget: with backoff shortened to at most 200 ms, every
 * waiting message fails at least {@value #ATTEMPTS_WHILE_DOWN} times (that release dead-lettered after 10). Retries are
 * bounded by time (24 h by default), so nothing is dead-lettered or lost: when the broker is back, every message is
 * delivered, byte for byte.
 */
class TargetOutageRetryTest {

    private static final String NAME = "target-outage";
    private static final int MESSAGES = 40;
    private static final int ATTEMPTS_WHILE_DOWN = 15;

    @Test
    void aTargetDownLongerThanTheOldAttemptBudgetLosesAndDeadLettersNothing() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        String targetQueue = NAME + ".target";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient();
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1);
             TcpRelay relay = new TcpRelay(RabbitMqTestClient.HOST, RabbitMqTestClient.PORT)) {
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
            settings.put("bridge.rabbitmq.port", Integer.toString(relay.port()));
            settings.put("bridge.retry.base-ms", "100");
            settings.put("bridge.retry.max-ms", "200");
            String inbound = settings.get("bridge.kafka.inbound-topics");
            String deadLetters = settings.get("bridge.dead-letter.kafka-topic");
            kafka.createTopics(1, inbound, deadLetters);
            rabbit.declareQueue(targetQueue);
            AdminApiClient api = new AdminApiClient("http://127.0.0.1:" + settings.get("camel.server.port"), null);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                relay.cut();
                Map<String, byte[]> sent = new LinkedHashMap<>();
                Random random = new Random(13);
                for (int i = 0; i < MESSAGES; i++) {
                    byte[] body = new byte[1 + random.nextInt(2_000)];
                    random.nextBytes(body);
                    String id = "down-" + i;
                    sent.put(id, body);
                    kafka.send(inbound, null, body, Map.of("x-delay", "300", "x-target", "rabbitmq:/" + targetQueue, "x-message-id", id));
                }
                kafka.flush();
                assertThat(RedisInspector.awaitValue(() -> redis.pending() + redis.inFlight(), MESSAGES, Duration.ofSeconds(30)))
                        .as("stored").isEqualTo(MESSAGES);

                int fewestAttempts = awaitEveryMessageFailed(api, sent.keySet(), ATTEMPTS_WHILE_DOWN, Duration.ofSeconds(90));
                assertThat(fewestAttempts).as("failed attempts of every message while the broker was down").isGreaterThanOrEqualTo(ATTEMPTS_WHILE_DOWN);
                assertThat(kafka.consume(deadLetters, 1, Duration.ofMillis(500))).as("dead letters while the broker is down").isEmpty();
                relay.restore();

                List<RabbitMqTestClient.Received> received = rabbit.consume(targetQueue, MESSAGES, Duration.ofSeconds(60), Duration.ofSeconds(1));
                List<String> deliveredIds = new ArrayList<>();
                for (RabbitMqTestClient.Received message : received) {
                    String id = message.headerText("x-message-id");
                    deliveredIds.add(id);
                    assertThat(message.body()).as("body of %s", id).isEqualTo(sent.get(id));
                }
                List<String> deadIds = kafka.consume(deadLetters, 1, Duration.ofSeconds(1)).stream().map(KafkaTestClient.Received::messageId).toList();
                DeliveryReport report = DeliveryReport.of("TargetOutageRetryTest (at least " + fewestAttempts + " failed attempts each while down)",
                        sent.keySet(), deliveredIds, deadIds);

                assertThat(report.missing()).isZero();
                assertThat(report.deadLettered()).isZero();
                assertThat(redis.pending() + redis.inFlight()).as("nothing left in Redis").isZero();
            }
        }
    }

    /** Waits until each message has failed at least {@code attempts} times (admin API); returns the fewest seen. */
    private static int awaitEveryMessageFailed(AdminApiClient api, Iterable<String> ids, int attempts, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        int fewest;
        do {
            fewest = Integer.MAX_VALUE;
            for (String id : ids) {
                AdminApiClient.Response response = api.get("/api/messages/" + id);
                int failed = response.status() == 200 && response.json().has("attempts") ? response.json().get("attempts").asInt() : -1;
                fewest = Math.min(fewest, failed);
            }
            if (fewest >= attempts) {
                return fewest;
            }
            Thread.sleep(200);
        } while (System.currentTimeMillis() < deadline);
        return fewest;
    }
}
