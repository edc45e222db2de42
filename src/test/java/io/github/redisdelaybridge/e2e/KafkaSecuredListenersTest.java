package io.github.redisdelaybridge.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.SecuredKafka;
import io.github.redisdelaybridge.testkit.SecuredKafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

/**
 * The bridge against a broker it may reach only over SASL (PLAIN) or only over TLS (a truststore the test made): the
 * pass-through properties reach every client, so a message is consumed, delivered to its target and a bad one
 * dead-lettered, all over the secured listener. The test's own producer and consumer use the broker's PLAINTEXT
 * listener, which the bridge is never told of.
 */
@Timeout(300)
class KafkaSecuredListenersTest {

    private static final String SASL_PASSWORD = "sasl-pw-" + Long.toString(System.nanoTime(), 36);

    @RegisterExtension
    static final SecuredKafkaBroker secured = new SecuredKafkaBroker("kafka-secured", SASL_PASSWORD);

    @Test
    void throughASaslListenerWithTheJaasPasswordFromAFile() throws Exception {
        String name = "kafka-sasl";
        Path jaas = Files.createTempFile("jaas", ".conf");
        Files.writeString(jaas, SecuredKafka.clientJaas(SASL_PASSWORD) + "\n");
        Map<String, String> settings = settings(name, secured.broker().saslBootstrap());
        settings.put("bridge.kafka.client.security.protocol", "SASL_PLAINTEXT");
        settings.put("bridge.kafka.client.sasl.mechanism", "PLAIN");
        settings.put("bridge.kafka.client.sasl.jaas.config-file", jaas.toString());
        try (LogCapture logs = new LogCapture()) {
            deliversAndDeadLetters(name, settings);
            assertThat(logs.messagesContaining(SASL_PASSWORD)).isEmpty();
        }
    }

    @Test
    void throughATlsListenerWithTruststoresPerClientFamily() {
        String name = "kafka-tls";
        Map<String, String> settings = settings(name, secured.broker().tlsBootstrap());
        settings.put("bridge.kafka.client.security.protocol", "SSL");
        // the consumers and the producer each get theirs through their own family; the client family holds the type
        settings.put("bridge.kafka.client.ssl.truststore.type", "PKCS12");
        for (String family : List.of("consumer", "producer")) {
            settings.put("bridge.kafka." + family + ".ssl.truststore.location", secured.certs().truststore().toString());
            settings.put("bridge.kafka." + family + ".ssl.truststore.password", secured.certs().password());
        }
        deliversAndDeadLetters(name, settings);
    }

    private static Map<String, String> settings(String name, String bootstrap) {
        LocalRedis.deleteKeys("test-" + name);
        secured.kafka().createTopics(1, name + ".inbound", name + ".target", name + ".dlq");
        Map<String, String> settings = BridgeInstance.settings(name, LocalRedis.URI);
        settings.put("bridge.kafka.bootstrap-servers", bootstrap);
        return settings;
    }

    private static void deliversAndDeadLetters(String name, Map<String, String> settings) {
        try (BridgeInstance bridge = BridgeInstance.start(settings)) {
            secured.kafka().sendAndWait(name + ".inbound", null, "secured".getBytes(StandardCharsets.UTF_8),
                    Map.of("x-delay", "300", "x-target", "kafka:" + name + ".target", "x-message-id", name + "-ok"));
            secured.kafka().sendAndWait(name + ".inbound", null, "no delay".getBytes(StandardCharsets.UTF_8),
                    Map.of("x-target", "kafka:" + name + ".target", "x-message-id", name + "-bad"));

            List<Received> delivered = secured.kafka().consume(name + ".target", 1, Duration.ofSeconds(60));
            assertThat(delivered).extracting(Received::messageId).containsExactly(name + "-ok");
            List<Received> dead = secured.kafka().consume(name + ".dlq", 1, Duration.ofSeconds(30));
            assertThat(dead).extracting(Received::messageId).containsExactly(name + "-bad");
            assertThat(dead.get(0).header("x-dead-letter-reason")).isEqualTo("missing-delay");
        }
    }
}
