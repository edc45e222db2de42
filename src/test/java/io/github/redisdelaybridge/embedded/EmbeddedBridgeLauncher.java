package io.github.redisdelaybridge.embedded;

import io.github.redisdelaybridge.BridgeMain;
import io.github.redisdelaybridge.config.HttpAddressInUseException;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import kafka.testkit.KafkaClusterTestKit;
import org.apache.camel.main.Main;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import redis.embedded.RedisServer;

/**
 * Runs the bridge on embedded defaults, for trying it out: a Kafka broker (KRaft) in this JVM on
 * 127.0.0.1:9092 (or a free port), Redis at 127.0.0.1:6379 if one answers, else a redis-server started
 * here, and RabbitMQ at 127.0.0.1:5672 (guest/guest) if one answers (RabbitMQ is not embedded: without
 * it the bridge runs Kafka only). It prints how to publish a delayed message and echoes what arrives on
 * the example targets and dead-letter channels. Ctrl-C stops everything it started.
 */
public final class EmbeddedBridgeLauncher {

    static final String INBOUND = "delay.inbound";
    static final String EXAMPLE_TARGET = "delay.outbound";
    static final String DEAD_LETTERS = "delay.dlq";

    public static void main(String[] args) throws Exception {
        KafkaClusterTestKit kafka = startKafka();
        String bootstrap = kafka.bootstrapServers();
        RedisServer embeddedRedis = null;
        String redisUri = "redis://127.0.0.1:6379";
        if (!redisAnswers(redisUri)) {
            int port = freePort();
            embeddedRedis = new RedisServer(port);
            embeddedRedis.start();
            redisUri = "redis://127.0.0.1:" + port;
        }
        createTopics(bootstrap);
        // BRIDGE_RABBITMQ_ENABLED=false: Kafka only even when a RabbitMQ answers (its queues are shared)
        boolean rabbitMq = !"false".equalsIgnoreCase(System.getenv("BRIDGE_RABBITMQ_ENABLED")) && rabbitMqAnswers();

        Main bridge = BridgeMain.newMain();
        bridge.addOverrideProperty("bridge.kafka.bootstrap-servers", bootstrap);
        bridge.addOverrideProperty("bridge.redis.uri", redisUri);
        bridge.addOverrideProperty("bridge.rabbitmq.enabled", Boolean.toString(rabbitMq));
        RedisServer startedRedis = embeddedRedis;
        Thread echo = new Thread(() -> echoArrivals(bootstrap), "example-target-echo");
        echo.setDaemon(true);
        // Ctrl-C and SIGTERM stop everything in order here, before the JVM's shutdown hooks run: one of
        // them (the Kafka test kit's) deletes the broker's log directory, and a broker still running then
        // fails on every write with ERROR stack traces.
        Runnable stopAll = () -> {
            quietKafkaLogging();
            try {
                bridge.stop();
                kafka.close();
                if (startedRedis != null) {
                    startedRedis.stop();
                }
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
        };
        for (String signal : List.of("INT", "TERM")) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), caught -> {
                System.out.println("stopping (SIG" + caught.getName() + ")");
                stopAll.run();
                System.out.println("stopped");
                System.exit(0);
            });
        }
        try {
            bridge.start();
        } catch (Exception e) {
            HttpAddressInUseException inUse = HttpAddressInUseException.in(e);
            if (inUse == null) {
                throw e;
            }
            // another bridge (another run-embedded, say) holds the port: say so in one line and stop what started
            inUse.problems().forEach(problem -> System.err.println("run-embedded: " + problem));
            stopAll.run();
            System.exit(1);
        }
        echo.start();
        if (rabbitMq) {
            echoRabbitMqArrivals();
        }
        System.out.printf("""

                redis-delay-bridge is running on embedded defaults.
                  Kafka     %s  (inbound topic %s, dead letters %s)
                  Redis     %s%s
                Publish a delayed message, for example with the bundled publisher:
                  bin/publish --bootstrap %s --topic %s --delay 5000 --target kafka:%s 'hello in 5 s'
                or with any Kafka client: produce to %s with headers x-delay=5000, x-target=kafka:%s.
                Cancel it (give it --id first): bin/publish --bootstrap %s --topic %s --header x-control=cancel --id <id> ''
                Admin API (loopback): curl http://127.0.0.1:%s/api/stats
                Arrivals on %s are echoed here. Ctrl-C stops everything.
                %s
                """, bootstrap, INBOUND, DEAD_LETTERS, redisUri, embeddedRedis != null ? " (embedded redis-server)" : "",
                bootstrap, INBOUND, EXAMPLE_TARGET, INBOUND, EXAMPLE_TARGET, bootstrap, INBOUND,
                bridge.getCamelContext().resolvePropertyPlaceholders("{{camel.server.port}}"), EXAMPLE_TARGET,
                rabbitMq ? String.format("""
                RabbitMQ  127.0.0.1:5672  (inbound queue %s, dead letters to queue %s, example target queue %s)
                  bin/publish --rabbitmq 127.0.0.1:5672 --delay 5000 --target rabbitmq:/%s 'hello in 5 s'
                  bin/publish --rabbitmq 127.0.0.1:5672 --delay 5000 --target kafka:%s 'from RabbitMQ to Kafka'
                """, INBOUND, DEAD_LETTERS, EXAMPLE_TARGET, EXAMPLE_TARGET, EXAMPLE_TARGET)
                        : "RabbitMQ  none answers on 127.0.0.1:5672: Kafka only (bridge.rabbitmq.enabled=false)\n");
        Thread.currentThread().join();
    }

    /** The stopping broker and the clients talking to it warn about each other; none of it matters any more. */
    private static void quietKafkaLogging() {
        for (String name : List.of("kafka", "org.apache.kafka", "state.change.logger")) {
            if (org.slf4j.LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.OFF);
            }
        }
    }

    /** On 9092 when it is free, else on any free port (the address is printed). */
    private static KafkaClusterTestKit startKafka() {
        if (isFree(9092)) {
            try {
                return EmbeddedKafka.start(9092);
            } catch (IllegalStateException taken) {
                System.err.println("port 9092 was taken meanwhile; starting Kafka on a free port");
            }
        }
        return EmbeddedKafka.start(0);
    }

    private static void echoArrivals(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "embedded-echo");
        p.put("auto.offset.reset", "latest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(EXAMPLE_TARGET, DEAD_LETTERS));
            while (true) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    StringBuilder line = new StringBuilder("arrived on " + r.topic() + ": '"
                            + (r.value() == null ? "(null)" : new String(r.value(), StandardCharsets.UTF_8)) + "'");
                    for (Header h : r.headers()) {
                        if (h.key().startsWith("x-")) {
                            line.append(' ').append(h.key()).append('=').append(h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8));
                        }
                    }
                    System.out.println(line);
                }
            }
        } catch (org.apache.kafka.common.errors.InterruptException | IllegalStateException stopping) {
            // the JVM is shutting down
        }
    }

    /** Echoes what reaches the example target queue and the RabbitMQ dead-letter queue. */
    private static void echoRabbitMqArrivals() throws Exception {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setHost("127.0.0.1");
        com.rabbitmq.client.Connection connection = factory.newConnection("embedded-echo");
        com.rabbitmq.client.Channel channel = connection.createChannel();
        for (String queue : List.of(EXAMPLE_TARGET, DEAD_LETTERS)) {
            channel.queueDeclare(queue, true, false, false, null);
            channel.basicConsume(queue, true, (tag, delivery) -> {
                StringBuilder line = new StringBuilder("arrived on RabbitMQ queue " + queue + ": '"
                        + new String(delivery.getBody(), StandardCharsets.UTF_8) + "'");
                java.util.Map<String, Object> headers = delivery.getProperties().getHeaders();
                if (headers != null) {
                    headers.forEach((name, value) -> {
                        if (name.startsWith("x-")) {
                            line.append(' ').append(name).append('=').append(value);
                        }
                    });
                }
                System.out.println(line);
            }, tag -> { });
        }
    }

    private static boolean rabbitMqAnswers() {
        com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
        factory.setHost("127.0.0.1");
        factory.setConnectionTimeout(1_000);
        try (com.rabbitmq.client.Connection connection = factory.newConnection("embedded-probe")) {
            return connection.isOpen();
        } catch (Exception e) {
            return false;
        }
    }

    private static void createTopics(String bootstrap) throws Exception {
        try (Admin admin = Admin.create(java.util.Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(INBOUND, 3, (short) 1), new NewTopic(EXAMPLE_TARGET, 1, (short) 1),
                    new NewTopic(DEAD_LETTERS, 1, (short) 1))).all().get();
        }
    }

    private static boolean redisAnswers(String uri) {
        RedisURI redisUri = RedisURI.create(uri);
        redisUri.setTimeout(Duration.ofMillis(500));
        RedisClient client = RedisClient.create(redisUri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return "PONG".equals(connection.sync().ping());
        } catch (RuntimeException e) {
            return false;
        } finally {
            client.shutdown(Duration.ZERO, Duration.ZERO);
        }
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
