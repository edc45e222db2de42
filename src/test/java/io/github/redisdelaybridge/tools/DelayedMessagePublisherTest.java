package io.github.redisdelaybridge.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqMemoryAlarm;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bin/publish's tool: usage, bad options, a missing broker reported in one line within seconds, and what it sends. */
class DelayedMessagePublisherTest {

    private final PublisherConsole console = new PublisherConsole();

    @Test
    void helpPrintsUsageAndPublishesNothing() {
        assertThat(run("--help")).isEqualTo(0);

        assertThat(console.out()).startsWith("Usage: publish [options] [BODY]").contains("--delay MS").contains("--rabbitmq ADDRESS")
                .contains("--timeout MS").contains("--config FILE").contains("--broker BROKER");
        assertThat(console.err()).isEmpty();
    }

    @Test
    void badOptionsAreOneLineAndExit2() {
        assertThat(run("--dealy", "5000", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: unknown option '--dealy' (see --help)\n");

        console.clear();
        assertThat(run("--delay")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: --delay needs a value (see --help)\n");

        console.clear();
        assertThat(run("hello", "world")).isEqualTo(2);
        assertThat(console.err()).contains("one body only");

        console.clear();
        assertThat(run("--broker", "amqp", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: --broker is kafka or rabbitmq, got 'amqp' (see --help)\n");

        console.clear();
        assertThat(run("--broker", "kafka", "--rabbitmq", "127.0.0.1", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: --rabbitmq publishes to RabbitMQ, not with --broker kafka (see --help)\n");
    }

    @Test
    void noKafkaBrokerFailsWithinSecondsInOneLine() {
        long started = System.nanoTime();

        int exit = run("--bootstrap", "127.0.0.1:" + FreePorts.next(), "--delay", "5000", "--target", "kafka:x", "hi");

        assertThat(exit).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(console.err()).startsWith("publish: no Kafka broker answers at 127.0.0.1:").endsWith(")\n").hasLineCount(1);
        assertThat(console.out()).isEmpty();
    }

    @Test
    void noRabbitMqBrokerFailsWithinSecondsInOneLine() {
        long started = System.nanoTime();

        int exit = run("--rabbitmq", "127.0.0.1:" + FreePorts.next(), "--delay", "5000", "hi");

        assertThat(exit).isEqualTo(1);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
        assertThat(console.err()).startsWith("publish: no RabbitMQ broker answers at 127.0.0.1:").hasLineCount(1);
    }

    @Test
    void publishesToKafkaWithTheDelayHeaders() {
        String topic = "publisher-tool.inbound";
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, topic);

            int exit = run("--bootstrap", EmbeddedKafka.bootstrapServers(), "--topic", topic, "--delay", "5000",
                    "--target", "kafka:out", "--id", "order-42", "--key", "k", "--header", "trace=t-1", "hello");

            assertThat(exit).as(console.err()).isEqualTo(0);
            assertThat(console.out()).startsWith("sent to " + topic + "/0@");
            KafkaTestClient.Received received = kafka.consume(topic, 1, Duration.ofSeconds(30)).get(0);
            assertThat(received.record().value()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
            assertThat(received.record().key()).isEqualTo("k".getBytes(StandardCharsets.UTF_8));
            assertThat(received.header("x-delay")).isEqualTo("5000");
            assertThat(received.header("x-target")).isEqualTo("kafka:out");
            assertThat(received.header("x-message-id")).isEqualTo("order-42");
            assertThat(received.header("trace")).isEqualTo("t-1");
        }
    }

    @Test
    void publishesToARabbitMqQueueWithAnIntegerDelay() {
        String queue = "publisher-tool.inbound";
        try (RabbitMqTestClient rabbitMq = new RabbitMqTestClient()) {
            rabbitMq.declareQueue(queue);
            try {
                int exit = run("--rabbitmq", RabbitMqTestClient.HOST + ":" + RabbitMqTestClient.PORT, "--queue", queue,
                        "--delay", "1500", "--target", "rabbitmq:/out", "hello");

                assertThat(exit).as(console.err()).isEqualTo(0);
                List<RabbitMqTestClient.Received> received = rabbitMq.consume(queue, 1, Duration.ofSeconds(10));
                assertThat(received).hasSize(1);
                assertThat(received.get(0).header("x-delay")).isEqualTo(1500);
                assertThat(received.get(0).headerText("x-target")).isEqualTo("rabbitmq:/out");
                assertThat(received.get(0).body()).isEqualTo("hello".getBytes(StandardCharsets.UTF_8));
            } finally {
                rabbitMq.deleteQueue(queue);
            }
        }
    }

    @Test
    void aMessageNoQueueTakesIsReportedNotSent() {
        int exit = run("--rabbitmq", RabbitMqTestClient.HOST, "--queue", "publisher-tool.no-such-queue", "--delay", "1", "x");

        assertThat(exit).isEqualTo(1);
        assertThat(console.err()).contains("returned the message: NO_ROUTE (312)").hasLineCount(1);
    }

    @Test
    void aBrokerThatBlocksPublishersFailsWithinTheTimeoutInOneLine() throws Exception {
        String queue = "publisher-tool.blocked";
        try (RabbitMqTestClient rabbitMq = new RabbitMqTestClient()) {
            rabbitMq.declareQueue(queue);
            int exit;
            long took;
            try (RabbitMqMemoryAlarm alarm = RabbitMqMemoryAlarm.raise()) {
                long started = System.nanoTime();
                exit = run("--rabbitmq", RabbitMqTestClient.HOST, "--queue", queue, "--delay", "1", "--timeout", "2000", "x");
                took = System.nanoTime() - started;
            }

            assertThat(exit).isEqualTo(1);
            assertThat(Duration.ofNanos(took)).as("the tool gives up on a blocking broker").isLessThan(Duration.ofSeconds(20));
            assertThat(console.err()).contains("did not confirm within 2000 ms").hasLineCount(1);
        }
    }

    @Test
    void connectsWithTheSettingsOfBridgeHomeTheEnvironmentOverThemAndTheOptionsOverBoth() {
        String topic = "publisher-tool.from-settings";
        String deadInFile = "127.0.0.1:" + FreePorts.next();
        String deadInOption = "127.0.0.1:" + FreePorts.next();
        Path home = SettingsFiles.homeWith(Map.of("bridge.kafka.bootstrap-servers", deadInFile, "bridge.kafka.inbound-topics", topic + ",other"));
        Map<String, String> environment = Map.of("BRIDGE_HOME", home.toString(), "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", EmbeddedKafka.bootstrapServers());
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers())) {
            kafka.createTopics(1, topic);

            // the file's broker does not answer: the variable's does; the topic is the file's first inbound topic
            int exit = console.run(environment, "--delay", "5000", "--target", "kafka:out", "--id", "from-settings", "hi");

            assertThat(exit).as(console.err()).isEqualTo(0);
            assertThat(console.out()).startsWith("sent to " + topic + "/0@");
            assertThat(kafka.consume(topic, 1, Duration.ofSeconds(30))).extracting(KafkaTestClient.Received::messageId).containsExactly("from-settings");

            // and --bootstrap wins over both
            assertThat(console.run(environment, "--bootstrap", deadInOption, "--delay", "1", "x")).isEqualTo(1);
            assertThat(console.err()).isEqualTo("publish: no Kafka broker answers at " + deadInOption + " (Connection refused)\n");
        }
        // without the variable, the file's broker
        console.clear();
        assertThat(console.run(Map.of("BRIDGE_HOME", home.toString()), "--delay", "1", "x")).isEqualTo(1);
        assertThat(console.err()).startsWith("publish: no Kafka broker answers at " + deadInFile + " (");
    }

    @Test
    void invalidSettingsAreOneLineNamingTheKeyAndExit2() {
        Path file = SettingsFiles.shippedWith(Map.of("bridge.rabbitmq.port", "five"));
        assertThat(console.run(Map.of(), "--config", file.toString(), "--delay", "1", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: configuration: " + file + ": setting bridge.rabbitmq.port must be a non-negative whole number,"
                + " got 'five'\n");

        console.clear();
        Path typo = SettingsFiles.shippedWith(Map.of("bridge.kafka.client.sasl.mechansim", "PLAIN"));
        assertThat(console.run(Map.of(), "--config", typo.toString(), "--delay", "1", "x")).isEqualTo(2);
        assertThat(console.err()).startsWith("publish: configuration: " + typo + ": unknown setting bridge.kafka.client.sasl.mechansim:")
                .contains("did you mean bridge.kafka.client.sasl.mechanism?").hasLineCount(1);

        console.clear();
        Path missingSecret = Path.of("/nonexistent/publish-secret-" + System.nanoTime());
        assertThat(console.run(Map.of("BRIDGE_KAFKA_CLIENT_SASL_JAAS_CONFIG_FILE", missingSecret.toString()), "--delay", "1", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: configuration: " + SettingsFiles.SHIPPED.toAbsolutePath() + ": setting"
                + " bridge.kafka.client.sasl.jaas.config-file: cannot read the file '" + missingSecret + "' (NoSuchFileException)\n");

        console.clear();
        assertThat(console.run(Map.of(), "--config", "/nonexistent/bridge.properties", "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: configuration: --config /nonexistent/bridge.properties: no such file\n");

        console.clear();
        assertThat(console.run(Map.of("BRIDGE_HOME", "/nonexistent/bridge"), "x")).isEqualTo(2);
        assertThat(console.err()).isEqualTo("publish: configuration: BRIDGE_HOME=/nonexistent/bridge: /nonexistent/bridge/config/application.properties"
                + " does not exist\n");
        assertThat(console.out()).isEmpty();
    }

    /** With no environment variable: the settings are the checkout's config/application.properties, as the tool finds them. */
    private int run(String... args) {
        return console.run(Map.of(), args);
    }
}
