package io.github.redisdelaybridge.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.RabbitMqTenant;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.SecuredKafka;
import io.github.redisdelaybridge.testkit.SecuredKafkaBroker;
import io.github.redisdelaybridge.testkit.TlsRelay;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    static final SecuredKafkaBroker secured = new SecuredKafkaBroker("publish-secured", SASL_PASSWORD);

    private final PublisherConsole console = new PublisherConsole();

    @Test
    void toKafkaOverSaslWithTheJaasConfigFromAFileTheEnvironmentNames() {
        String topic = "publish-sasl.inbound";
        secured.kafka().createTopics(1, topic);
        Path settings = SettingsFiles.shippedWith(Map.of(
                "bridge.kafka.bootstrap-servers", secured.broker().saslBootstrap(),
                "bridge.kafka.inbound-topics", topic,
                "bridge.kafka.client.security.protocol", "SASL_PLAINTEXT",
                "bridge.kafka.client.sasl.mechanism", "PLAIN"));
        Path jaas = SettingsFiles.secret(SecuredKafka.clientJaas(SASL_PASSWORD));

        int exit = console.run(Map.of("BRIDGE_KAFKA_CLIENT_SASL_JAAS_CONFIG_FILE", jaas.toString()),
                "--config", settings.toString(), "--delay", "5000", "--target", "kafka:out", "--id", "over-sasl", "over sasl");

        assertThat(exit).as(console.err()).isEqualTo(0);
        assertThat(console.out()).startsWith("sent to " + topic + "/0@");
        List<KafkaTestClient.Received> received = secured.kafka().consume(topic, 1, Duration.ofSeconds(30));
        assertThat(received).extracting(KafkaTestClient.Received::messageId).containsExactly("over-sasl");
        assertThat(received.get(0).header("x-delay")).isEqualTo("5000");
        assertThat(received.get(0).record().value()).isEqualTo("over sasl".getBytes(StandardCharsets.UTF_8));

        // another password: refused by the broker, in one line, without the password
        console.clear();
        String wrong = "wrong-" + SASL_PASSWORD;
        Path wrongJaas = SettingsFiles.secret(SecuredKafka.clientJaas(wrong));
        assertThat(console.run(Map.of("BRIDGE_KAFKA_CLIENT_SASL_JAAS_CONFIG_FILE", wrongJaas.toString()),
                "--config", settings.toString(), "--delay", "5000", "--timeout", "5000", "x")).isEqualTo(1);
        assertThat(console.err()).startsWith("publish: Kafka at " + secured.broker().saslBootstrap() + " did not take the message: ")
                .contains("Authentication failed").doesNotContain(wrong).hasLineCount(1);
    }

    @Test
    void toKafkaOverTlsWithTheBrokerAndTheTruststorePasswordFromTheEnvironmentAndTheOptionOverThem() {
        String topic = "publish-tls.inbound";
        secured.kafka().createTopics(1, topic);
        // the file names no broker that answers: the environment does, as it would override the bridge's
        Path settings = SettingsFiles.shippedWith(Map.of(
                "bridge.kafka.bootstrap-servers", "127.0.0.1:" + FreePorts.next(),
                "bridge.kafka.inbound-topics", topic,
                "bridge.kafka.client.security.protocol", "SSL",
                "bridge.kafka.client.ssl.truststore.type", "PKCS12",
                "bridge.kafka.producer.ssl.truststore.location", secured.certs().truststore().toString()));
        Map<String, String> environment = Map.of(
                "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", secured.broker().tlsBootstrap(),
                "BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE", SettingsFiles.secret(secured.certs().password()).toString());

        int exit = console.run(environment, "--config", settings.toString(), "--delay", "5000", "--target", "kafka:out", "--id", "over-tls", "over tls");

        assertThat(exit).as(console.err()).isEqualTo(0);
        assertThat(console.out()).startsWith("sent to " + topic + "/0@");

        // --bootstrap wins over the variable; the TLS settings still apply
        console.clear();
        Map<String, String> elsewhere = Map.of(
                "BRIDGE_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:" + FreePorts.next(),
                "BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE", environment.get("BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_PASSWORD_FILE"));
        assertThat(console.run(elsewhere, "--config", settings.toString(), "--bootstrap", secured.broker().tlsBootstrap(), "--delay", "5000",
                "--id", "over-tls-option", "x")).as(console.err()).isEqualTo(0);

        assertThat(secured.kafka().consume(topic, 2, Duration.ofSeconds(30))).extracting(KafkaTestClient.Received::messageId)
                .containsExactly("over-tls", "over-tls-option");
    }

    @Test
    void toRabbitMqAsAUserOfItsOwnInAVirtualHostOfItsOwnOverTlsWithAHostList() throws Exception {
        String queue = "publish-secured.inbound";
        try (RabbitMqTenant tenant = RabbitMqTenant.create("rdb-publish")) {
            String vhost = tenant.virtualHost();
            String user = tenant.user();
            String password = tenant.password();
            try (TlsRelay tls = new TlsRelay(secured.certs(), RabbitMqTestClient.HOST, RabbitMqTestClient.PORT);
                 RabbitMqTestClient rabbit = new RabbitMqTestClient(vhost)) {
                rabbit.declareQueue(queue);
                // the first node is down; the second is the TLS listener; the CA is a PEM file; the password comes from a file
                String down = "127.0.0.1:" + FreePorts.next();
                Path settings = SettingsFiles.shippedWith(Map.of(
                        "bridge.rabbitmq.host", down + ", 127.0.0.1:" + tls.port(),
                        "bridge.rabbitmq.virtual-host", vhost,
                        "bridge.rabbitmq.username", user,
                        "bridge.rabbitmq.tls.enabled", "true",
                        "bridge.rabbitmq.tls.truststore", secured.certs().caPem().toString(),
                        "bridge.rabbitmq.inbound-queues", queue));
                Path passwordFile = SettingsFiles.secret(password);

                int exit = console.run(Map.of("BRIDGE_RABBITMQ_PASSWORD_FILE", passwordFile.toString()), "--config", settings.toString(),
                        "--broker", "rabbitmq", "--delay", "1500", "--target", "rabbitmq:/out", "--id", "over-amqps", "over amqps");

                assertThat(exit).as(console.err()).isEqualTo(0);
                assertThat(console.out()).isEqualTo("sent to RabbitMQ queue " + queue + "\n");

                // --rabbitmq HOST:PORT replaces the host list only: the user, the virtual host and TLS stay as configured
                console.clear();
                assertThat(console.run(Map.of("BRIDGE_RABBITMQ_PASSWORD_FILE", passwordFile.toString(), "BRIDGE_RABBITMQ_HOST", down),
                        "--config", settings.toString(), "--rabbitmq", "127.0.0.1:" + tls.port(), "--delay", "1500",
                        "--id", "over-amqps-option", "x")).as(console.err()).isEqualTo(0);

                // an amqps:// URI names user, password and virtual host itself (the file's are guest and /); the server is
                // checked against the configured CA
                console.clear();
                String uri = "amqps://" + user + ":" + password + "@127.0.0.1:" + tls.port() + "/" + vhost;
                Path caOnly = SettingsFiles.shippedWith(Map.of("bridge.rabbitmq.tls.enabled", "true",
                        "bridge.rabbitmq.tls.truststore", secured.certs().caPem().toString()));
                assertThat(console.run(Map.of(), "--config", caOnly.toString(), "--rabbitmq", uri, "--queue", queue, "--delay", "1500",
                        "--id", "over-amqps-uri", "x")).as(console.err()).isEqualTo(0);

                List<RabbitMqTestClient.Received> received = rabbit.consume(queue, 3, Duration.ofSeconds(10));
                assertThat(received).extracting(r -> r.headerText("x-message-id"))
                        .containsExactly("over-amqps", "over-amqps-option", "over-amqps-uri");
                assertThat(received.get(0).header("x-delay")).isEqualTo(1500);
                assertThat(received.get(0).body()).isEqualTo("over amqps".getBytes(StandardCharsets.UTF_8));

                // another password: refused by the broker, in one line
                console.clear();
                assertThat(console.run(Map.of("BRIDGE_RABBITMQ_PASSWORD", "wrong-" + password), "--config", settings.toString(),
                        "--broker", "rabbitmq", "--delay", "1500", "x")).isEqualTo(1);
                assertThat(console.err()).startsWith("publish: RabbitMQ at " + down + ",127.0.0.1:" + tls.port() + " did not let user '" + user
                        + "' into virtual host '" + vhost + "' over TLS: ").contains("ACCESS_REFUSED").hasLineCount(1);
                // ... and without the CA configured, the JVM's CAs do not trust the test's server: refused, not trusted blindly
                console.clear();
                assertThat(console.run(Map.of(), "--rabbitmq", uri, "--queue", queue, "--delay", "1500", "x")).isEqualTo(1);
                assertThat(console.err()).startsWith("publish: RabbitMQ at 127.0.0.1:" + tls.port() + ": the TLS handshake failed (")
                        .contains("PKIX").doesNotContain(password).hasLineCount(1);
                assertThat(rabbit.readyAndUnackedTotal(queue)).as("nothing more arrived").isZero();
            }
        }
    }
}
