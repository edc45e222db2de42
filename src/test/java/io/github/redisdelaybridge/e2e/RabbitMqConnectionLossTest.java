package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.DeliveryReport;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient.Received;
import io.github.redisdelaybridge.testkit.RedisInspector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every RabbitMQ connection of the bridge is closed by the broker twice: while it consumes the inbound
 * queue and while it publishes due messages. It reconnects by itself; nothing is lost, and every inbound
 * delivery ends acked (the queue is left with nothing ready and nothing unacked).
 *
 * <p>The connections are closed with {@code rabbitmqctl close_all_connections} limited to a virtual host
 * of this test's own, so other users of the shared broker keep theirs.
 */
class RabbitMqConnectionLossTest {

    private static final String NAME = "rmq-connection-loss";
    private static final String VHOST = "rdb-" + NAME;
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final int MESSAGES = 2000;
    private static final Pattern CLOSED = Pattern.compile("Closed (\\d+) connections");

    private static BridgeInstance bridge;
    private static LogCapture logs;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        logs = new LogCapture();
        RabbitMqTestClient.rabbitmqctl("add_vhost", VHOST);
        RabbitMqTestClient.rabbitmqctl("set_permissions", "-p", VHOST, "guest", ".*", ".*", ".*");
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        settings.put("bridge.rabbitmq.virtual-host", VHOST);
        settings.put("bridge.rabbitmq.prefetch", "20");
        settings.put("bridge.rabbitmq.inbound-batch-size", "10");
        settings.put("bridge.retry.base-ms", "200");
        settings.put("bridge.retry.max-ms", "1000");
        bridge = BridgeInstance.start(settings);
    }

    @AfterAll
    static void stopBridge() {
        if (bridge != null) {
            bridge.close();
        }
        RabbitMqTestClient.rabbitmqctl("delete_vhost", VHOST);
        logs.close();
    }

    @Test
    void theBridgeReconnectsAndNothingIsLost() throws Exception {
        try (RabbitMqTestClient setup = new RabbitMqTestClient(VHOST)) {
            setup.ensureQueue(TARGET);
        }
        CompletableFuture<Integer> closedWhileConsuming = CompletableFuture.supplyAsync(RabbitMqConnectionLossTest::closeAllConnections);
        publishAll();
        int closedFirst = closedWhileConsuming.get();

        List<Received> received = new ArrayList<>();
        try (RabbitMqTestClient rabbit = new RabbitMqTestClient(VHOST)) {
            received.addAll(rabbit.consume(TARGET, 1, Duration.ofSeconds(30)));
        }
        assertThat(received).as("first deliveries after the reconnect").isNotEmpty();
        assertThat(awaitBridgeConnected(Duration.ofSeconds(20))).as("consumer and publisher connected again").isTrue();
        int closedSecond = closeAllConnections();

        try (RabbitMqTestClient rabbit = new RabbitMqTestClient(VHOST)) {
            // at-least-once: a publish whose confirm was lost with its connection arrives twice, so count distinct ids, not
            // messages (counting messages stopped early, with the last-due ones still on their way)
            Set<String> distinct = new HashSet<>();
            received.forEach(r -> distinct.add(r.properties().getMessageId()));
            long deadline = System.currentTimeMillis() + 90_000;
            while (distinct.size() < MESSAGES && System.currentTimeMillis() < deadline) {
                List<Received> more = rabbit.consume(TARGET, MESSAGES - distinct.size(), Duration.ofSeconds(5));
                received.addAll(more);
                more.forEach(r -> distinct.add(r.properties().getMessageId()));
            }
            received.addAll(rabbit.consume(TARGET, 0, Duration.ZERO, Duration.ofSeconds(2)));
            try (RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1)) {
                assertThat(RedisInspector.awaitValue(() -> redis.pending() + redis.inFlight(), 0, Duration.ofSeconds(10)))
                        .as("left in Redis").isZero();
            }
            assertThat(rabbit.readyAndUnacked(INBOUND)).as("inbound queue: ready, unacked").containsExactly(0, 0);
        }

        assertThat(closedFirst).as("bridge connections closed while consuming").isGreaterThanOrEqualTo(1);
        assertThat(closedSecond).as("bridge connections closed while delivering").isGreaterThanOrEqualTo(2);
        Set<String> ids = received.stream().map(r -> r.properties().getMessageId()).collect(Collectors.toSet());
        Set<String> missing = new TreeSet<>();
        for (int i = 0; i < MESSAGES; i++) {
            if (!ids.contains("m" + i)) {
                missing.add("m" + i);
            }
        }
        assertThat(missing).as("lost").isEmpty();
        assertThat(logs.messagesContaining("PRECONDITION_FAILED")).as("acks or nacks of an unknown (stale) delivery tag").isEmpty();
        // at-least-once: a publish whose confirm was lost with its connection is sent again
        List<String> sent = java.util.stream.IntStream.range(0, MESSAGES).mapToObj(i -> "m" + i).toList();
        DeliveryReport report = DeliveryReport.of("RabbitMqConnectionLossTest", sent,
                received.stream().map(r -> r.properties().getMessageId()).toList(), List.of());
        assertThat(report.missing()).isZero();
    }

    private static boolean awaitBridgeConnected(Duration timeout) {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            String names = RabbitMqTestClient.connectionNames(VHOST);
            if (names.contains("redis-delay-bridge-consumer") && names.contains("redis-delay-bridge-publisher")) {
                return true;
            }
            sleep(200);
        }
        return false;
    }

    /**
     * Publishes every message, due 3 to 7 s after it is stored. If the closing cuts this client off,
     * it publishes them all again: the message-ids make the bridge store each only once.
     */
    private static void publishAll() {
        while (true) {
            try (RabbitMqTestClient rabbit = new RabbitMqTestClient(VHOST)) {
                for (int i = 0; i < MESSAGES; i++) {
                    AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId("m" + i).deliveryMode(2)
                            .headers(Map.of("x-delay", 3_000 + (i % 20) * 200, "x-target", "rabbitmq:/" + TARGET)).build();
                    rabbit.publishNoWait("", INBOUND, properties, ("m" + i).getBytes());
                }
                rabbit.waitForConfirms();
                return;
            } catch (RuntimeException cutOff) {
                sleep(200);
            }
        }
    }

    private static int closeAllConnections() {
        String output = RabbitMqTestClient.rabbitmqctl("-p", VHOST, "close_all_connections", "test: connection loss");
        Matcher closed = CLOSED.matcher(output);
        return closed.find() ? Integer.parseInt(closed.group(1)) : 0;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
