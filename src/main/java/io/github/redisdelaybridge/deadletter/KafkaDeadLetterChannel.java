package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.outbound.KafkaHeaderMapping;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Dead letters to a Kafka topic, with the reason, detail, origin and attempts as headers ({@link DeadLetterHeaders}).
 * A RabbitMQ-origin dead letter's headers and properties are mapped as for a Kafka target ({@link KafkaHeaderMapping}).
 *
 * <p>The channel needs a producer of its own, configured by {@link #producerProperties}: one that sends each record in a
 * batch of its own, so that a dead letter the topic refuses for its size is refused alone.
 */
public final class KafkaDeadLetterChannel implements DeadLetterChannel {

    /** Appended to the client id of the bridge's producer: the two producers' metrics and logs stay apart. */
    public static final String CLIENT_ID_SUFFIX = "-dead-letters";

    private final KafkaProducerClient kafka;
    private final String topic;
    private final ChannelLimit limit;

    /** @param kafka a producer made with {@link #producerProperties}, not the one of the targets */
    public KafkaDeadLetterChannel(KafkaProducerClient kafka, String topic, ChannelLimit limit) {
        this.kafka = kafka;
        this.topic = topic;
        this.limit = limit;
    }

    /**
     * The properties of the dead-letter producer: those of the bridge's producer ({@code bridgeProducer}: connection,
     * security, limits), without batching. Kafka's producer splits a batch the broker refuses for its size into batches
     * of {@code batch.size} and sends them again, until the delivery timeout; two dead letters that fit a small topic each
     * (a topic whose {@code max.message.bytes} is below {@code batch.size} and below {@code bridge.dead-letter.kafka-max-bytes})
     * but not together would be refused together, again and again, holding their inbound batch meanwhile. Alone, a record
     * the topic refuses fails at once ({@code RecordTooLargeException}) and {@link DeadLetters} sends its smallest form.
     * Dead letters are few, so batching them gains nothing. A client id set in the settings gets {@value #CLIENT_ID_SUFFIX}.
     */
    public static Map<String, Object> producerProperties(Map<String, Object> bridgeProducer) {
        Map<String, Object> properties = new LinkedHashMap<>(bridgeProducer);
        // 0: no batching (Kafka's producer then makes batches of one record), whatever bridge.kafka.producer.batch.size says
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, 0);
        Object clientId = properties.get(ProducerConfig.CLIENT_ID_CONFIG);
        if (clientId != null && !clientId.toString().isBlank()) {
            properties.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + CLIENT_ID_SUFFIX);
        }
        return properties;
    }

    @Override
    public ChannelLimit limit(DeadLetter deadLetter) {
        return limit;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        return kafka.publish(topic, deadLetter.key(),
                DeadLetterHeaders.of(KafkaHeaderMapping.headers(deadLetter.headers(), deadLetter.properties()), deadLetter),
                deadLetter.body()).thenApply(metadata -> null);
    }
}
