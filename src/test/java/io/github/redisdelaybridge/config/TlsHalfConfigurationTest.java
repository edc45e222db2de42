package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.github.redisdelaybridge.testkit.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS stores configured for a connection that would not use TLS stop the start instead of leaving it plain; checks
 * turned off are a warning at every start; a Redis URI that cannot be parsed is refused without being shown.
 */
class TlsHalfConfigurationTest {

    @TempDir
    Path directory;

    private Map<String, String> config;

    @BeforeEach
    void loadShippedConfig() throws IOException {
        config = ShippedConfig.settings();
    }



    private String store(String name) throws IOException {
        return Files.writeString(directory.resolve(name), "a store").toString();
    }

    @Test
    void redisStoresWithAPlainRedisUriStopTheStart() throws IOException {
        config.put("bridge.redis.uri", "redis://:pw@redis.example:6379");
        config.put("bridge.redis.tls.truststore", store("ca.pem"));

        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString()
                .startsWith("setting bridge.redis.tls.truststore is set but bridge.redis.uri is not rediss://")
                .doesNotContain("pw@");

        config.remove("bridge.redis.tls.truststore");
        config.put("bridge.redis.tls.keystore", store("client.p12"));
        config.put("bridge.redis.uri", "redis-sentinel://s1:26379,s2:26379#main");
        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString().startsWith("setting bridge.redis.tls.keystore is set but bridge.redis.uri is not rediss://");

        // one cluster seed without TLS is enough to refuse
        config.put("bridge.redis.uri", "rediss://n1:6379,redis://n2:6379");
        config.put("bridge.redis.cluster", "true");
        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString().startsWith("setting bridge.redis.tls.keystore is set but bridge.redis.uri is not rediss://");
    }

    @Test
    void redisStoresWithTlsUrisPass() throws IOException {
        config.put("bridge.redis.tls.truststore", store("ca.pem"));
        config.put("bridge.redis.uri", "rediss://redis.example:6380");
        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
        config.put("bridge.redis.uri", "rediss-sentinel://s1:26379,s2:26379#main");
        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
        config.put("bridge.redis.uri", "rediss://n1:6379, rediss://n2:6379");
        config.put("bridge.redis.cluster", "true");
        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
    }

    @Test
    void rabbitMqStoresWhileTlsIsOffStopTheStart() throws IOException {
        config.put("bridge.rabbitmq.tls.enabled", "false");
        config.put("bridge.rabbitmq.tls.truststore", store("rabbit-ca.pem"));

        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString()
                .startsWith("setting bridge.rabbitmq.tls.truststore is set but bridge.rabbitmq.tls.enabled is false");

        config.remove("bridge.rabbitmq.tls.truststore");
        config.put("bridge.rabbitmq.tls.keystore", store("rabbit-client.p12"));
        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString()
                .startsWith("setting bridge.rabbitmq.tls.keystore is set but bridge.rabbitmq.tls.enabled is false");

        config.put("bridge.rabbitmq.tls.enabled", "true");
        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
    }

    @Test
    void kafkaSslPropertiesOverAPlaintextProtocolStopTheStart() {
        config.put("bridge.kafka.client.ssl.truststore.location", "/etc/bridge/kafka-ca.p12");

        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString()
                .startsWith("setting bridge.kafka.client.ssl.truststore.location is set but the security.protocol of");

        config.put("bridge.kafka.client.security.protocol", "SASL_PLAINTEXT");
        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString().contains("SASL_PLAINTEXT");

        // the consumers on TLS, the producers left plain with the client family's truststore
        config.put("bridge.kafka.consumer.security.protocol", "SSL");
        assertThat(ShippedConfig.problems(config, Map.of())).singleElement().asString().contains("producer");

        config.put("bridge.kafka.client.security.protocol", "SASL_SSL");
        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
    }

    @Test
    void checksTurnedOffAreAWarningAtEveryStart() throws IOException {
        config.put("bridge.redis.uri", "rediss://redis.example:6380");
        config.put("bridge.redis.tls.verify-peer", "none");
        config.put("bridge.rabbitmq.tls.enabled", "true");
        config.put("bridge.rabbitmq.tls.verify-hostname", "false");
        config.put("bridge.kafka.client.security.protocol", "SSL");
        config.put("bridge.kafka.client.ssl.endpoint.identification.algorithm", "");

        for (int start = 0; start < 2; start++) {
            try (LogCapture logs = new LogCapture()) {
                ShippedConfig.read(config, Map.of());
                assertThat(logs.messagesAtLeast(Level.WARN, "io.github.redisdelaybridge")).as("start %d", start)
                        .anySatisfy(line -> assertThat(line).contains("bridge.redis.tls.verify-peer=none"))
                        .anySatisfy(line -> assertThat(line).contains("bridge.rabbitmq.tls.verify-hostname=false"))
                        .anySatisfy(line -> assertThat(line).contains("ssl.endpoint.identification.algorithm is empty"));
            }
        }
        config.put("bridge.redis.tls.verify-peer", "full");
        config.put("bridge.rabbitmq.tls.verify-hostname", "true");
        config.put("bridge.kafka.client.ssl.endpoint.identification.algorithm", "https");
        try (LogCapture logs = new LogCapture()) {
            ShippedConfig.read(config, Map.of());
            assertThat(logs.messagesAtLeast(Level.WARN, "io.github.redisdelaybridge")).isEmpty();
        }
    }

    @Test
    void aRedisUriThatCannotBeParsedIsRefusedWithoutShowingIt() {
        for (String password : List.of("pa%ss-x1", "pa ss-x1", "p%zz x1")) {
            config.put("bridge.redis.uri", "redis://bridge:" + password + "@redis.example:6379");

            assertThat(ShippedConfig.problems(config, Map.of())).as(password).singleElement().asString()
                    .startsWith("setting bridge.redis.uri: cannot parse")
                    .doesNotContain(password).doesNotContain("x1").doesNotContain("redis.example");
        }
    }

    @Test
    void aPercentEncodedPasswordParses() {
        config.put("bridge.redis.uri", "redis://bridge:pa%25ss%20x@redis.example:6379");

        assertThat(ShippedConfig.problems(config, Map.of())).isEmpty();
    }
}
