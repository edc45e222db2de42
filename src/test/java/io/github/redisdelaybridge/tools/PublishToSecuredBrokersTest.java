package io.github.redisdelaybridge.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTenant;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.SecuredKafka;
import io.github.redisdelaybridge.testkit.TestCertificates;
import io.github.redisdelaybridge.testkit.TlsRelay;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * bin/publish against brokers it may reach only as the bridge is configured to: a Kafka listener with SASL/PLAIN, one with
 * TLS, and RabbitMQ as a user of its own in a virtual host of its own over TLS (a relay in front of the shared broker, as in
 * RabbitMqSecuredConnectionTest). Every setting comes from a settings file and the environment, as a user who set up the
 * bridge has them, with no option of the tool's but what the message needs; the test reads what arrived over the brokers'
 * plain listeners, which the tool is never told of. A wrong secret is refused in one line.
 */
@Timeout(300)
class PublishToSecuredBrokersTest {

    private static final String SASL_PASSWORD = "sasl-pw-" + Long.toString(System.nanoTime(), 36);

    private static TestCertificates certs;
    private static SecuredKafka broker;
    private static KafkaTestClient kafka;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void startBroker() {
        certs = TestCertificates.generate("publish-secured");
        broker = SecuredKafka.start(certs, SASL_PASSWORD);
        kafka = new KafkaTestClient(broker.plainBootstrap());
    }

    @AfterAll
    static void stopBroker() {
        if (kafka != null) {
            kafka.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @BeforeEach
    void quietOutputs() {
        out.reset();
        err.reset();
    }

    @Test
    void toKafkaOverSaslWithTheJaasConfigFromAFileTheEnvironmentNames() {
        String topic = "publish-sasl.inbound";
        kafka.createTopics(1, topic);
        Path settings = SettingsFiles.shippedWith(Map.of(
                "bridge.kafka.bootstrap-servers", broker.saslBootstrap(),
                "bridge.kafka.inbound-topics", topic,
                "bridge.kafka.client.security.protocol", "SASL_PLAINTEXT",
                "bridge.kafka.client.sasl.mechanism", "PLAIN"));
        Path jaas = SettingsFiles.secret(SecuredKafka.clientJaas(SASL_PASSWORD));

        int exit = run(Map.of("BRIDGE_KAFKA_CLIENT_SASL_JAAS_CONFIG_FILE", jaas.toString()),
                "--config", settings.toString(), "--delay", "5000", "--target", "kafka:out", "--id", "over-sasl", "over sasl");

        assertThat(exit).as(err()).isEqualTo(0);
        assertThat(out()).startsWith("sent to " + topic + "/0@");
        List<KafkaTestClient.Received> received = kafka.consume(topic, 1, Duration.ofSeconds(30));
        assertThat(received).extracting(KafkaTestClient.Received::messageId).containsExactly("over-sasl");
        assertThat(received.get(0).header("x-delay")).isEqualTo("5000");
        assertThat(received.get(0).record().value()).isEqualTo("over sasl".getBytes(StandardCharsets.UTF_8));

        // another password: refused by the broker, in one line, without the password
        quietOutputs();
        String wrong = "wrong-" + SASL_PASSWORD;
        Path wrongJaas = SettingsFiles.secret(SecuredKafka.clientJaas(wrong));
        assertThat(run(Map.of("BRIDGE_KAFKA_CLIENT_SASL_JAAS_CONFIG_FILE", wrongJaas.toString()),
                "--config", settings.toString(), "--delay", "5000", "--timeout", "5000", "x")).isEqualTo(1);
        assertThat(err()).startsWith("publish: Kafka at " + broker.saslBootstrap() + " did not take the message: ")
                .contains("Authentication failed").doesNotContain(wrong).hasLineCount(1);
    }

    @Test
    void toKafkaOverTlsWithTheBrokerAndTheTruststorePasswordFromTheEnvironmentAndTheOptionOverThem() {
        String topic = "publish-tls.inbound";
        kafka.createTopics(1, topic);
        // the file names no broker that answers: the environment does, as it would override the bridge's
        Path settings = SettingsFiles.shippedWith(Map.of(
                "bridge.kafka.bootstrap-servers", "127.0.0.1:" + FreePorts.next(),
                "bridge.kafka.inbound-topics", topic,
                "bridge.kafka.client.security.protocol", "SSL",
                "bridge.kafka.client.ssl.truststore.type", "PKCS12",
                "bridge.kafka.producer.ssl.truststore.location", certs.truststore().toString()));
        Map<String, String> environment = Map.of(
                "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", broker.tlsBootstrap(),
                "BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE", SettingsFiles.secret(certs.password()).toString());

        int exit = run(environment, "--config", settings.toString(), "--delay", "5000", "--target", "kafka:out", "--id", "over-tls", "over tls");

        assertThat(exit).as(err()).isEqualTo(0);
        assertThat(out()).startsWith("sent to " + topic + "/0@");

        // --bootstrap wins over the variable; the TLS settings still apply
        quietOutputs();
        Map<String, String> elsewhere = Map.of(
                "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + FreePorts.next(),
                "BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE", environment.get("BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE"));
        assertThat(run(elsewhere, "--config", settings.toString(), "--bootstrap", broker.tlsBootstrap(), "--delay", "5000",
                "--id", "over-tls-option", "x")).as(err()).isEqualTo(0);

        assertThat(kafka.consume(topic, 2, Duration.ofSeconds(30))).extracting(KafkaTestClient.Received::messageId)
                .containsExactly("over-tls", "over-tls-option");
    }

    @Test
    void toRabbitMqAsAUserOfItsOwnInAVirtualHostOfItsOwnOverTlsWithAHostList() throws Exception {
        String queue = "publish-secured.inbound";
        try (RabbitMqTenant tenant = RabbitMqTenant.create("rdb-publish")) {
            String vhost = tenant.virtualHost();
            String user = tenant.user();
            String password = tenant.password();
            try (TlsRelay tls = new TlsRelay(certs, RabbitMqTestClient.HOST, RabbitMqTestClient.PORT);
                 RabbitMqTestClient rabbit = new RabbitMqTestClient(vhost)) {
                rabbit.declareQueue(queue);
                // the first node is down; the second is the TLS listener; the CA is a PEM file; the password comes from a file
                String down = "127.0.0.1:" + FreePorts.next();
                Path settings = SettingsFiles.shippedWith(Map.of(
                        "bridge.rabbitmq.host", down + ", 127.0.0.1:" + tls.port(),
                        "bridge.rabbitmq.virtual-host", vhost,
                        "bridge.rabbitmq.username", user,
                        "bridge.rabbitmq.tls.enabled", "true",
                        "bridge.rabbitmq.tls.truststore", certs.caPem().toString(),
                        "bridge.rabbitmq.inbound-queues", queue));
                Path passwordFile = SettingsFiles.secret(password);

                int exit = run(Map.of("BRIDGE_RABBITMQ_PASSWORD_FILE", passwordFile.toString()), "--config", settings.toString(),
                        "--broker", "rabbitmq", "--delay", "1500", "--target", "rabbitmq:/out", "--id", "over-amqps", "over amqps");

                assertThat(exit).as(err()).isEqualTo(0);
                assertThat(out()).isEqualTo("sent to RabbitMQ queue " + queue + "\n");

                // --rabbitmq HOST:PORT replaces the host list only: the user, the virtual host and TLS stay as configured
                quietOutputs();
                assertThat(run(Map.of("BRIDGE_RABBITMQ_PASSWORD_FILE", passwordFile.toString(), "BRIDGE_RABBITMQ_HOST", down),
                        "--config", settings.toString(), "--rabbitmq", "127.0.0.1:" + tls.port(), "--delay", "1500",
                        "--id", "over-amqps-option", "x")).as(err()).isEqualTo(0);

                // an amqps:// URI names user, password and virtual host itself (the file's are guest and /); the server is
                // checked against the configured CA
                quietOutputs();
                String uri = "amqps://" + user + ":" + password + "@127.0.0.1:" + tls.port() + "/" + vhost;
                Path caOnly = SettingsFiles.shippedWith(Map.of("bridge.rabbitmq.tls.enabled", "true",
                        "bridge.rabbitmq.tls.truststore", certs.caPem().toString()));
                assertThat(run(Map.of(), "--config", caOnly.toString(), "--rabbitmq", uri, "--queue", queue, "--delay", "1500",
                        "--id", "over-amqps-uri", "x")).as(err()).isEqualTo(0);

                List<RabbitMqTestClient.Received> received = rabbit.consume(queue, 3, Duration.ofSeconds(10));
                assertThat(received).extracting(r -> r.headerText("x-message-id"))
                        .containsExactly("over-amqps", "over-amqps-option", "over-amqps-uri");
                assertThat(received.get(0).header("x-delay")).isEqualTo(1500);
                assertThat(received.get(0).body()).isEqualTo("over amqps".getBytes(StandardCharsets.UTF_8));

                // another password: refused by the broker, in one line
                quietOutputs();
                assertThat(run(Map.of("BRIDGE_RABBITMQ_PASSWORD", "wrong-" + password), "--config", settings.toString(),
                        "--broker", "rabbitmq", "--delay", "1500", "x")).isEqualTo(1);
                assertThat(err()).startsWith("publish: RabbitMQ at " + down + ",127.0.0.1:" + tls.port() + " did not let user '" + user
                        + "' into virtual host '" + vhost + "' over TLS: ").contains("ACCESS_REFUSED").hasLineCount(1);
                // ... and without the CA configured, the JVM's CAs do not trust the test's server: refused, not trusted blindly
                quietOutputs();
                assertThat(run(Map.of(), "--rabbitmq", uri, "--queue", queue, "--delay", "1500", "x")).isEqualTo(1);
                assertThat(err()).startsWith("publish: RabbitMQ at 127.0.0.1:" + tls.port() + ": the TLS handshake failed (")
                        .contains("PKIX").doesNotContain(password).hasLineCount(1);
                assertThat(rabbit.readyAndUnackedTotal(queue)).as("nothing more arrived").isZero();
            }
        }
    }

    private int run(Map<String, String> environment, String... args) {
        return DelayedMessagePublisher.run(args, environment, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }
}
