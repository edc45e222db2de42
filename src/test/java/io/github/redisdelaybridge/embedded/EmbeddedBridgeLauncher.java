package io.github.redisdelaybridge.embedded;

import io.github.redisdelaybridge.BridgeMain;
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
 * here. It prints how to publish a delayed message and echoes what arrives on the example target.
 * Ctrl-C stops everything it started.
 */
public final class EmbeddedBridgeLauncher {

    static final String INBOUND = "delay.inbound";
    static final String EXAMPLE_TARGET = "delay.outbound";
    static final String DEAD_LETTERS = "delay.dlq";

    public static void main(String[] args) throws Exception {
        int kafkaPort = isFree(9092) ? 9092 : 0;
        KafkaClusterTestKit kafka = EmbeddedKafka.start(kafkaPort);
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

        Main bridge = BridgeMain.newMain();
        bridge.addOverrideProperty("bridge.kafka.bootstrap-servers", bootstrap);
        bridge.addOverrideProperty("bridge.redis.uri", redisUri);
        RedisServer startedRedis = embeddedRedis;
        Thread echo = new Thread(() -> echoArrivals(bootstrap), "example-target-echo");
        echo.setDaemon(true);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                bridge.stop();
                kafka.close();
                if (startedRedis != null) {
                    startedRedis.stop();
                }
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
        }, "embedded-stop"));
        bridge.start();
        echo.start();
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

                """, bootstrap, INBOUND, DEAD_LETTERS, redisUri, embeddedRedis != null ? " (embedded redis-server)" : "",
                bootstrap, INBOUND, EXAMPLE_TARGET, INBOUND, EXAMPLE_TARGET, bootstrap, INBOUND,
                bridge.getCamelContext().resolvePropertyPlaceholders("{{camel.server.port}}"), EXAMPLE_TARGET);
        Thread.currentThread().join();
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
