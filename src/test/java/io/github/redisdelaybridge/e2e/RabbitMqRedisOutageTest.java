package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * While Redis is down, RabbitMQ deliveries are not acked: the bridge nacks them with requeue after a few
 * tries, RabbitMQ delivers them again, and once Redis is back every one is stored and delivered.
 * The Redis here is a redis-server of the test's own; the shared one on 6379 is never stopped.
 */
class RabbitMqRedisOutageTest {

    private static final String NAME = "rmq-redis-outage";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final int HELD = 30;

    @Test
    void deliveriesArrivingWhileRedisIsDownAreNotAckedAndComeBack() throws InterruptedException {
        try (RedisServerProcess redis = new RedisServerProcess(NAME, false).start();
             LogCapture logs = new LogCapture();
             RabbitMqTestClient rabbit = new RabbitMqTestClient()) {
            rabbit.declareQueue(TARGET);
            Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, redis.uri()), NAME);
            settings.put("bridge.redis.command-timeout-ms", "1000");
            settings.put("bridge.redis.wait-timeout-ms", "500"); // below the command timeout, as the settings check demands
            settings.put("bridge.rabbitmq.store-attempts", "2");
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                for (int i = 0; i < 3; i++) {
                    publish(rabbit, "before-" + i);
                }
                assertThat(rabbit.consume(TARGET, 3, Duration.ofSeconds(20))).as("delivered before the outage").hasSize(3);

                redis.stop();
                for (int i = 0; i < HELD; i++) {
                    publish(rabbit, "held-" + i);
                }
                assertThat(rabbit.consume(TARGET, 1, Duration.ofSeconds(4))).as("delivered while Redis is down").isEmpty();
                long[] readyAndUnacked = rabbit.readyAndUnacked(INBOUND);
                assertThat(readyAndUnacked[0] + readyAndUnacked[1]).as("still in the inbound queue, not acked").isEqualTo(HELD);
                assertThat(logs.messagesContaining("requeued for redelivery")).as("nacked with requeue").isNotEmpty();

                redis.start();
                List<Received> received = rabbit.consume(TARGET, HELD, Duration.ofSeconds(60), Duration.ofSeconds(1));

                Set<String> ids = received.stream().map(r -> r.properties().getMessageId()).collect(Collectors.toSet());
                assertThat(ids).containsExactlyInAnyOrderElementsOf(IntStream.range(0, HELD).mapToObj(i -> "held-" + i).toList());
                assertThat(received).as("each once").hasSize(HELD);
                assertThat(rabbit.readyAndUnacked(INBOUND)).as("inbound queue: ready, unacked").containsExactly(0, 0);
                assertThat(logs.messagesContaining("PRECONDITION_FAILED")).isEmpty();
            } finally {
                rabbit.deleteQueue(INBOUND);
                rabbit.deleteQueue(NAME + ".dlq");
            }
        }
    }

    private static void publish(RabbitMqTestClient rabbit, String id) {
        rabbit.publish("", INBOUND, new AMQP.BasicProperties.Builder().messageId(id).deliveryMode(2)
                        .headers(Map.of("x-delay", 500, "x-target", "rabbitmq:/" + TARGET)).build(),
                id.getBytes(StandardCharsets.UTF_8));
    }
}
