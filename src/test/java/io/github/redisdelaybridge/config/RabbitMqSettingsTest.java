package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The bridge.rabbitmq.* settings as shipped, and the bounds a start refuses to go past. */
class RabbitMqSettingsTest {

    private final Map<String, String> config = new HashMap<>();

    @BeforeEach
    void loadShippedConfig() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(Path.of("config/application.properties"), StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        properties.stringPropertyNames().forEach(name -> config.put(name, properties.getProperty(name)));
    }

    @Test
    void shippedDefaultsAreKafkaOnlyWithTheLocalBrokerReadyToEnable() {
        RabbitMqSettings rabbitMq = BridgeSettings.from(config::get).rabbitMq();

        assertThat(rabbitMq.enabled()).isFalse();
        assertThat(rabbitMq.host()).isEqualTo("127.0.0.1");
        assertThat(rabbitMq.port()).isEqualTo(5672);
        assertThat(rabbitMq.virtualHost()).isEqualTo("/");
        assertThat(rabbitMq.inboundQueues()).containsExactly("delay.inbound");
        assertThat(rabbitMq.inboundExchanges()).isEmpty();
        assertThat(rabbitMq.prefetch()).isEqualTo(1000);
        assertThat(rabbitMq.batchSize()).isEqualTo(500);
        assertThat(rabbitMq.lingerMs()).isEqualTo(10);
        assertThat(rabbitMq.consumersPerQueue()).isEqualTo(2);
        assertThat(rabbitMq.storeAttempts()).isEqualTo(3);
        assertThat(rabbitMq.deadLetterChannel()).isEqualTo("rabbitmq:/delay.dlq");
    }

    @Test
    void prefetchIsBounded() {
        config.put("bridge.rabbitmq.prefetch", "0");
        assertThatThrownBy(() -> BridgeSettings.from(config::get)).hasMessageContaining("bridge.rabbitmq.prefetch");
        config.put("bridge.rabbitmq.prefetch", "1001");
        assertThatThrownBy(() -> BridgeSettings.from(config::get)).hasMessageContaining("bridge.rabbitmq.prefetch");
        config.put("bridge.rabbitmq.prefetch", "1000");
        assertThat(BridgeSettings.from(config::get).rabbitMq().prefetch()).isEqualTo(1000);
    }

    @Test
    void aBatchFitsInThePrefetch() {
        config.put("bridge.rabbitmq.prefetch", "100");
        config.put("bridge.rabbitmq.inbound-batch-size", "101");
        assertThatThrownBy(() -> BridgeSettings.from(config::get))
                .hasMessage("setting bridge.rabbitmq.inbound-batch-size must be 1 to bridge.rabbitmq.prefetch (100), got 101");
        config.put("bridge.rabbitmq.inbound-batch-size", "100");
        assertThat(BridgeSettings.from(config::get).rabbitMq().batchSize()).isEqualTo(100);
    }

    @Test
    void badValuesNameTheirKey() {
        config.put("bridge.rabbitmq.enabled", "yes");
        assertThatThrownBy(() -> BridgeSettings.from(config::get)).hasMessageContaining("bridge.rabbitmq.enabled");
        config.put("bridge.rabbitmq.enabled", "true");
        config.put("bridge.rabbitmq.dead-letter-channel", "sqs:dlq");
        assertThatThrownBy(() -> BridgeSettings.from(config::get)).hasMessageContaining("bridge.rabbitmq.dead-letter-channel");
        config.put("bridge.rabbitmq.dead-letter-channel", "kafka:delay.dlq");
        config.put("bridge.rabbitmq.inbound-exchanges", "other.queue=delayed");
        assertThatThrownBy(() -> BridgeSettings.from(config::get)).hasMessageContaining("bridge.rabbitmq.inbound-exchanges");
    }
}
