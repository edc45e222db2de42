package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kafka pass-through properties that would void a delivery promise (a message deleted from Redis on a weaker ack, an
 * offset committed before Redis has the batch, records skipped or rewritten) stop the start, one line each naming the key.
 */
class KafkaDeliverySettingsTest {

    private Map<String, String> config;
    private Map<String, String> environment;

    @BeforeEach
    void loadShippedConfig() throws IOException {
        config = ShippedConfig.settings();
        environment = new HashMap<>();
    }


    @ParameterizedTest
    @CsvSource({
            "bridge.kafka.producer.acks, 1, every in-sync replica",
            "bridge.kafka.producer.acks, 0, every in-sync replica",
            "bridge.kafka.client.acks, ALL, every in-sync replica",
            "bridge.kafka.producer.enable.idempotence, false, idempotent producer",
            "bridge.kafka.client.enable.idempotence, FALSE, idempotent producer",
            "bridge.kafka.producer.retries, 0, retries",
            "bridge.kafka.producer.max.in.flight.requests.per.connection, 6, in flight",
            "bridge.kafka.producer.transactional.id, bridge-tx, transactions",
            "bridge.kafka.consumer.enable.auto.commit, true, only once Redis has the batch",
            "bridge.kafka.client.enable.auto.commit, TRUE, only once Redis has the batch",
            "bridge.kafka.consumer.auto.offset.reset, latest, skipping",
            "bridge.kafka.producer.value.serializer, org.apache.kafka.common.serialization.StringSerializer, as bytes",
            "bridge.kafka.consumer.value.deserializer, org.apache.kafka.common.serialization.StringDeserializer, as bytes",
            "bridge.kafka.client.key.deserializer, org.apache.kafka.common.serialization.StringDeserializer, as bytes",
    })
    void aPropertyThatWeakensDeliveryStopsTheStartInOneLineNamingIt(String key, String value, String why) {
        config.put(key, value);

        assertThat(ShippedConfig.problems(config, environment)).singleElement().asString()
                .startsWith("setting " + key + ": " + key.replaceFirst("^bridge\\.kafka\\.(client|consumer|producer)\\.", "") + "=" + value
                        + " is refused: ")
                .contains(why)
                .doesNotContain("\n");
    }

    @Test
    void aRefusedValueSetAsAnEnvironmentVariableOrFromAFileIsNamedAsSet() throws IOException {
        environment.put("BRIDGE_KAFKA_PRODUCER_ACKS", "1");
        Path file = Files.writeString(Files.createTempFile("auto-commit", ".txt"), "true\n");
        config.put("bridge.kafka.consumer.enable.auto.commit-file", file.toString());

        assertThat(ShippedConfig.problems(config, environment)).hasSize(2)
                .anySatisfy(line -> assertThat(line).startsWith("setting bridge.kafka.producer.acks: acks=1 is refused: "))
                .anySatisfy(line -> assertThat(line).startsWith(
                        "setting bridge.kafka.consumer.enable.auto.commit-file: enable.auto.commit=true is refused: "));
    }

    @Test
    void valuesThatKeepThePromisesPass() {
        config.put("bridge.kafka.producer.acks", "-1");
        config.put("bridge.kafka.client.enable.idempotence", "true");
        config.put("bridge.kafka.producer.retries", "10");
        config.put("bridge.kafka.producer.max.in.flight.requests.per.connection", "5");
        config.put("bridge.kafka.consumer.enable.auto.commit", "false");
        config.put("bridge.kafka.consumer.auto.offset.reset", "none");
        config.put("bridge.kafka.consumer.isolation.level", "read_committed");

        assertThat(ShippedConfig.problems(config, environment)).isEmpty();
    }

    @Test
    void theNarrowerFamilyDecidesWhatAClientGets() {
        // the producer gets acks=all from its own family: the client family's weaker value never reaches it
        config.put("bridge.kafka.client.acks", "1");
        config.put("bridge.kafka.producer.acks", "all");

        assertThat(ShippedConfig.problems(config, environment)).isEmpty();
    }
}
