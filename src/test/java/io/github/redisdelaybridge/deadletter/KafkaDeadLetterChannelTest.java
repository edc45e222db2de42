package io.github.redisdelaybridge.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dead-letter producer's properties: the bridge producer's (security, limits) without batching. The end-to-end
 * proof that a refused dead letter no longer holds up others is KafkaDeadLetterSizeTest.
 */
class KafkaDeadLetterChannelTest {

    @Test
    void theBridgeProducersPropertiesWithoutBatchingWhateverBatchSizeIsSet() {
        Map<String, Object> bridge = Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512",
                "max.request.size", 2_000_000, "batch.size", "65536", "linger.ms", "20");

        Map<String, Object> deadLetters = KafkaDeadLetterChannel.producerProperties(bridge);

        assertThat(deadLetters).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("max.request.size", 2_000_000).containsEntry("linger.ms", "20")
                .containsEntry("batch.size", 0).doesNotContainKey("client.id");
        assertThat(bridge).as("the targets' producer keeps its own").containsEntry("batch.size", "65536");
    }

    @Test
    void aClientIdFromTheSettingsIsKeptApartFromTheTargetsProducers() {
        assertThat(KafkaDeadLetterChannel.producerProperties(Map.of("client.id", "orders-bridge")))
                .containsEntry("client.id", "orders-bridge-dead-letters");
    }
}
