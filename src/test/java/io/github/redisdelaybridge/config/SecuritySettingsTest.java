package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.store.connection.RedisSecurity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The security settings: secrets from files, Kafka pass-through families, Redis TLS, RabbitMQ hosts and TLS. */
class SecuritySettingsTest {

    @TempDir
    Path directory;

    private Map<String, String> config;
    private Map<String, String> environment;

    @BeforeEach
    void loadShippedConfig() throws IOException {
        config = ShippedConfig.settings();
        environment = new HashMap<>();
    }



    private Path file(String name, String content) throws IOException {
        return Files.writeString(directory.resolve(name), content);
    }

    @Test
    void secretsComeFromFilesNamedByAPropertyOrAFileVariableAndTheFileWins() throws IOException {
        config.put("bridge.redis.password-file", file("redis", "r3dis-pw\n").toString());
        config.put("bridge.admin.token", "inline-token");
        config.put("bridge.admin.token-file", file("token", "file-token\r\n").toString());
        environment.put("BRIDGE_RABBITMQ_PASSWORD_FILE", file("amqp", "amqp-pw").toString());
        environment.put("BRIDGE_ADMIN_READ_TOKEN", "read-from-variable");

        BridgeSettings settings = ShippedConfig.read(config, environment);

        assertThat(settings.redisSecurity().password()).isEqualTo("r3dis-pw");
        assertThat(settings.adminToken()).isEqualTo("file-token");
        assertThat(settings.rabbitMq().password()).isEqualTo("amqp-pw");
        assertThat(settings.adminReadToken()).isEqualTo("read-from-variable");
        assertThat(settings.toString()).doesNotContain("r3dis-pw", "file-token", "amqp-pw", "read-from-variable");
    }

    @Test
    void anUnreadableSecretFileIsNamedButNothingOfItsContent() {
        config.put("bridge.admin.token-file", directory.resolve("missing").toString());

        assertThat(ShippedConfig.problems(config, environment)).singleElement().asString().startsWith("setting bridge.admin.token-file: cannot read the file")
                .contains("missing");
    }

    @Test
    void kafkaPropertiesPassThroughPerFamilyTheNarrowerWinning() throws IOException {
        config.put("bridge.kafka.client.security.protocol", "SASL_SSL");
        config.put("bridge.kafka.client.sasl.mechanism", "SCRAM-SHA-512");
        config.put("bridge.kafka.client.linger.ms", "5"); // a producer property: only the producer gets it
        config.put("bridge.kafka.client.sasl.jaas.config-file", file("jaas", "ScramLoginModule required password=\"x\";\n").toString());
        config.put("bridge.kafka.consumer.security.protocol", "SSL");
        environment.put("BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_LOCATION", "/etc/kafka/trust.p12");
        environment.put("BRIDGE_KAFKA_CONSUMER_FETCH_MIN_BYTES", "1");

        KafkaClientProperties kafka = ShippedConfig.read(config, environment).kafkaClients();

        assertThat(kafka.forConsumer()).containsEntry("security.protocol", "SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sasl.jaas.config", "ScramLoginModule required password=\"x\";").containsEntry("fetch.min.bytes", "1")
                .doesNotContainKey("linger.ms").doesNotContainKey("ssl.truststore.location");
        assertThat(kafka.forProducer()).containsEntry("security.protocol", "SASL_SSL").containsEntry("linger.ms", "5")
                .containsEntry("ssl.truststore.location", "/etc/kafka/trust.p12").doesNotContainKey("fetch.min.bytes");
        assertThat(kafka.forProducerAdmin()).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("ssl.truststore.location", "/etc/kafka/trust.p12").doesNotContainKey("linger.ms");
        assertThat(kafka.toString()).doesNotContain("password");
    }

    @Test
    void anUnknownKafkaPropertyStopsTheStartWithTheClosestKnownOne() {
        config.put("bridge.kafka.client.security.protocl", "SSL");
        environment.put("BRIDGE_KAFKA_CONSUMER_ACKS", "all"); // a producer property in the consumer family

        assertThat(ShippedConfig.problems(config, environment)).containsExactlyInAnyOrder(
                "unknown setting bridge.kafka.client.security.protocl: security.protocl is not a Kafka client property;"
                        + " did you mean bridge.kafka.client.security.protocol?",
                "unknown setting bridge.kafka.consumer.acks: acks is not a Kafka consumer property; did you mean bridge.kafka.consumer."
                        + KeySuggestions.closest("acks", org.apache.kafka.clients.consumer.ConsumerConfig.configNames()) + "?");
    }

    @Test
    void theConsumersGroupMembershipIsNotPassedThroughButSetByTheBridgesOwnSettings() {
        config.put("bridge.kafka.consumer.group.instance.id", "node-1");
        environment.put("BRIDGE_KAFKA_CLIENT_SESSION_TIMEOUT_MS", "30000");
        config.put("bridge.kafka.consumer.heartbeat.interval.ms", "2000"); // not owned: passed through

        assertThat(ShippedConfig.problems(config, environment)).containsExactlyInAnyOrder(
                "setting bridge.kafka.consumer.group.instance.id: the bridge sets group.instance.id itself;"
                        + " set bridge.instance-id (each consumer joins as <instance-id>-<n>) instead",
                "setting bridge.kafka.client.session.timeout.ms: the bridge sets session.timeout.ms itself;"
                        + " set bridge.kafka.session-timeout-ms instead");
    }

    @Test
    void redisTlsSettingsAreReadAndCheckedAtStart() throws IOException {
        Path ca = file("ca.pem", "not really a certificate");
        config.put("bridge.redis.uri", "rediss://127.0.0.1:6380");
        config.put("bridge.redis.username", "bridge");
        config.put("bridge.redis.tls.truststore", ca.toString());
        config.put("bridge.redis.tls.verify-peer", "CA");

        RedisSecurity security = ShippedConfig.read(config, environment).redisSecurity();
        assertThat(security.username()).isEqualTo("bridge");
        assertThat(security.truststore()).isEqualTo(ca);
        assertThat(security.verifyPeer()).isEqualTo(RedisSecurity.VerifyPeer.CA);

        config.put("bridge.redis.tls.verify-peer", "strict");
        assertThat(ShippedConfig.problems(config, environment)).singleElement().asString().isEqualTo("setting bridge.redis.tls.verify-peer must be full, ca or none, got 'strict'");
        config.put("bridge.redis.tls.verify-peer", "full");
        config.put("bridge.redis.tls.keystore", directory.resolve("absent.p12").toString());
        assertThat(ShippedConfig.problems(config, environment)).singleElement().asString().startsWith("setting bridge.redis.tls.keystore: no readable file");
    }

    @Test
    void rabbitMqTakesAHostListAndTls() throws IOException {
        config.put("bridge.rabbitmq.host", "rabbit-1, rabbit-2:5673,[::1]:5674");
        config.put("bridge.rabbitmq.port", "5671");
        config.put("bridge.rabbitmq.tls.enabled", "true");
        config.put("bridge.rabbitmq.password", "amqp-s3cret");

        RabbitMqSettings rabbitMq = ShippedConfig.read(config, environment).rabbitMq();
        assertThat(rabbitMq.addresses()).containsExactly(new RabbitMqSettings.Address("rabbit-1", 5671),
                new RabbitMqSettings.Address("rabbit-2", 5673), new RabbitMqSettings.Address("::1", 5674));
        assertThat(rabbitMq.tls()).isNotNull();
        assertThat(rabbitMq.verifyHostname()).isTrue();
        assertThat(rabbitMq.toString()).contains("rabbit-2:5673").doesNotContain("amqp-s3cret");

        config.put("bridge.rabbitmq.tls.enabled", "false");
        assertThat(ShippedConfig.read(config, environment).rabbitMq().tls()).isNull();
        config.put("bridge.rabbitmq.host", "rabbit-1:amqp");
        assertThat(ShippedConfig.problems(config, environment)).singleElement().asString().contains("bridge.rabbitmq.host");
    }

    @Test
    void theRedisUriIsNeverShownWithItsPassword() {
        assertThat(io.github.redisdelaybridge.store.connection.RedisConnection.redacted("redis://:pw@host:6379/0")).isEqualTo("redis://***@host:6379/0");
        assertThat(io.github.redisdelaybridge.store.connection.RedisConnection.redacted("rediss://user:pw@host:6380")).isEqualTo("rediss://***@host:6380");
        assertThat(io.github.redisdelaybridge.store.connection.RedisConnection.redacted("redis-sentinel://:pw@s1:26379,s2:26379#m"))
                .isEqualTo("redis-sentinel://***@s1:26379,s2:26379#m");
        assertThat(io.github.redisdelaybridge.store.connection.RedisConnection.redacted("redis://host:6379")).isEqualTo("redis://host:6379");
        config.put("bridge.redis.uri", "redis://:uri-secret@127.0.0.1:6379");
        assertThat(ShippedConfig.read(config, environment).toString()).doesNotContain("uri-secret");
    }

    @Test
    void tlsContextsAreBuiltFromPemAndPkcs12StoresWithoutShowingPasswords() throws Exception {
        io.github.redisdelaybridge.testkit.TestCertificates certs = io.github.redisdelaybridge.testkit.TestCertificates.generate("tls-stores");
        assertThat(new TlsStores("p.", certs.caPem(), "", certs.clientKeystore(), certs.password()).clientContext().getProtocol()).isEqualTo("TLS");
        assertThat(new TlsStores("p.", certs.truststore(), certs.password(), null, "").clientContext()).isNotNull();
        assertThat(new TlsStores("p.", null, "", null, "").clientContext()).isNotNull();

        assertThatThrownBy(() -> new TlsStores("bridge.rabbitmq.tls.", certs.caPem(), "", certs.clientKeystore(), "wrong-pw").clientContext())
                .hasMessageStartingWith("setting bridge.rabbitmq.tls.keystore: cannot read").hasMessageNotContaining("wrong-pw")
                .hasMessageNotContaining(certs.password());
        Path notPem = file("bad.pem", "nothing here");
        assertThatThrownBy(() -> new TlsStores("bridge.rabbitmq.tls.", notPem, "", null, "").clientContext())
                .hasMessageContaining("bridge.rabbitmq.tls.");
    }
}
