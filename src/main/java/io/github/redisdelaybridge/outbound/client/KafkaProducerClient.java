package io.github.redisdelaybridge.outbound.client;

import io.github.redisdelaybridge.message.MessageHeader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The bridge's Kafka client: publishes raw records (topic, key, headers, body) and reports the broker's
 * acknowledgement as a future. It knows nothing of envelopes or targets: {@code KafkaTargetPublisher}
 * and the Kafka dead-letter channel build their records and hand them to it. The producer is
 * idempotent with acks=all, so a completed future means every in-sync replica has the record, and
 * retries inside the producer never duplicate or reorder it.
 *
 * <p>A send to a topic the broker does not know blocks for {@code max.block.ms} waiting for metadata;
 * such a topic is remembered as missing for a short while so that a batch of messages for it fails
 * fast instead of blocking the dispatcher once per message.
 */
public final class KafkaProducerClient implements AutoCloseable {

    private static final long MISSING_TOPIC_MEMORY_MS = 5_000;

    private final KafkaProducer<byte[], byte[]> producer;
    private final Map<String, Long> missingTopicsUntil = new ConcurrentHashMap<>();

    public KafkaProducerClient(String bootstrapServers, String clientId, Map<String, Object> overrides) {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        config.putAll(overrides);
        this.producer = new KafkaProducer<>(config);
    }

    public CompletableFuture<RecordMetadata> publish(String topic, byte[] key, List<MessageHeader> headers, byte[] body) {
        Long missingUntil = missingTopicsUntil.get(topic);
        if (missingUntil != null && missingUntil > System.currentTimeMillis()) {
            return CompletableFuture.failedFuture(new TimeoutException("topic " + topic + " was not found in the broker's metadata"));
        }
        RecordHeaders recordHeaders = new RecordHeaders();
        for (MessageHeader header : headers) {
            recordHeaders.add(new RecordHeader(header.name(), header.plainBytes()));
        }
        CompletableFuture<RecordMetadata> acknowledged = new CompletableFuture<>();
        try {
            producer.send(new ProducerRecord<>(topic, null, key, body, recordHeaders), (metadata, failure) -> {
                if (failure != null) {
                    acknowledged.completeExceptionally(failure);
                } else {
                    acknowledged.complete(metadata);
                }
            });
        } catch (TimeoutException metadataTimeout) {
            missingTopicsUntil.put(topic, System.currentTimeMillis() + MISSING_TOPIC_MEMORY_MS);
            acknowledged.completeExceptionally(metadataTimeout);
        } catch (RuntimeException refused) {
            acknowledged.completeExceptionally(refused);
        }
        return acknowledged;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
