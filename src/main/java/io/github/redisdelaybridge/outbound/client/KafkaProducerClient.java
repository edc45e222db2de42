package io.github.redisdelaybridge.outbound.client;

import io.github.redisdelaybridge.message.MessageHeader;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
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
 * <p><b>Topics are never created by sending.</b> Unless {@code allowTopicAutoCreation}, a record goes to the
 * producer only once {@link KafkaTopicCatalog} has seen its topic in the brokers' metadata: a producer's own
 * metadata request would create a missing topic on a broker with {@code auto.create.topics.enable=true}, and
 * elsewhere block for {@code max.block.ms} per record. A record for a missing topic fails at once with
 * {@link UnknownTopicOrPartitionException} (retriable: the topic may be created later). A topic not yet in the
 * catalog is looked up without blocking the caller; its records wait in a queue of their own, in the order they
 * came, and are handed to the producer from this client's own thread once the answer is in (records for the topic
 * that come meanwhile join that queue, so none overtakes another).
 *
 * <p>With {@code allowTopicAutoCreation} the producer asks for (and may create) the topic itself; a topic the
 * broker does not create then blocks a send for {@code max.block.ms}, and is remembered as missing for a short
 * while so that a batch for it fails fast instead of blocking once per record.
 */
public final class KafkaProducerClient implements AutoCloseable {

    private static final long MISSING_TOPIC_MEMORY_MS = 5_000;
    /** Missing topics remembered at most: their names come from producers' targets, so their number has no bound of its own. */
    static final int MAX_MISSING_TOPICS_REMEMBERED = 1_000;

    private final KafkaProducer<byte[], byte[]> producer;
    private final KafkaTopicCatalog topics;
    private final ExecutorService sendAfterLookup;
    private final Map<String, Long> missingTopicsUntil = new ConcurrentHashMap<>();
    /** Per topic waiting for its lookup: the hand-over of the last record queued for it. Guarded by itself. */
    private final Map<String, CompletableFuture<Void>> waitingForLookup = new HashMap<>();

    /** A client that never causes a topic to be created. */
    public KafkaProducerClient(String bootstrapServers, String clientId, Map<String, Object> overrides) {
        this(bootstrapServers, clientId, overrides, false);
    }

    public KafkaProducerClient(String bootstrapServers, String clientId, Map<String, Object> overrides, boolean allowTopicAutoCreation) {
        this(bootstrapServers, clientId, overrides, Map.of(), allowTopicAutoCreation);
    }

    /**
     * @param overrides      producer properties over the defaults here (security settings, limits)
     * @param adminOverrides properties of the admin client that looks topics up (the same security settings)
     */
    public KafkaProducerClient(String bootstrapServers, String clientId, Map<String, Object> overrides, Map<String, Object> adminOverrides,
                               boolean allowTopicAutoCreation) {
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
        this.topics = allowTopicAutoCreation ? null : new KafkaTopicCatalog(bootstrapServers, clientId + "-topics", adminOverrides);
        this.sendAfterLookup = allowTopicAutoCreation ? null : Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, "kafka-send-after-topic-lookup");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The producer's client metrics for a meter registry ({@code kafka_producer_*}); close it with the client. */
    public io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics metrics() {
        return new io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics(producer);
    }

    public CompletableFuture<RecordMetadata> publish(String topic, byte[] key, List<MessageHeader> headers, byte[] body) {
        if (topics == null) {
            return sendRemembering(topic, key, headers, body);
        }
        CompletableFuture<RecordMetadata> acknowledged = new CompletableFuture<>();
        Boolean exists;
        synchronized (waitingForLookup) {
            CompletableFuture<Void> queue = waitingForLookup.get(topic);
            exists = queue == null ? topics.knownExists(topic) : null;
            if (exists == null) {
                CompletableFuture<Boolean> lookup = topics.exists(topic);
                CompletableFuture<Void> previous = queue != null ? queue : lookup.handle((found, failure) -> null);
                CompletableFuture<Void> handedOver = previous.thenRunAsync(
                        () -> sendOnceLookedUp(lookup, topic, key, headers, body, acknowledged), sendAfterLookup);
                waitingForLookup.put(topic, handedOver);
                handedOver.whenComplete((done, failure) -> {
                    synchronized (waitingForLookup) {
                        waitingForLookup.remove(topic, handedOver);
                    }
                });
                return acknowledged;
            }
        }
        return exists ? send(topic, key, headers, body) : CompletableFuture.failedFuture(missing(topic));
    }

    /** On this client's thread, in queue order: the lookup has answered (or failed). */
    private void sendOnceLookedUp(CompletableFuture<Boolean> lookup, String topic, byte[] key, List<MessageHeader> headers, byte[] body,
                                  CompletableFuture<RecordMetadata> acknowledged) {
        Boolean exists;
        try {
            exists = lookup.join();
        } catch (RuntimeException failed) {
            acknowledged.completeExceptionally(failed.getCause() != null ? failed.getCause() : failed);
            return;
        }
        if (!exists) {
            acknowledged.completeExceptionally(missing(topic));
            return;
        }
        send(topic, key, headers, body).whenComplete((metadata, failure) -> {
            if (failure != null) {
                acknowledged.completeExceptionally(failure);
            } else {
                acknowledged.complete(metadata);
            }
        });
    }

    private static UnknownTopicOrPartitionException missing(String topic) {
        return new UnknownTopicOrPartitionException("topic " + topic + " does not exist (broker metadata); the bridge does not create"
                + " topics (bridge.kafka.allow-topic-auto-creation=false)");
    }

    private CompletableFuture<RecordMetadata> sendRemembering(String topic, byte[] key, List<MessageHeader> headers, byte[] body) {
        Long missingUntil = missingTopicsUntil.get(topic);
        if (missingUntil != null && missingUntil > System.currentTimeMillis()) {
            return CompletableFuture.failedFuture(new TimeoutException("topic " + topic + " was not found in the broker's metadata"));
        }
        CompletableFuture<RecordMetadata> acknowledged = send(topic, key, headers, body);
        acknowledged.exceptionally(failure -> {
            if (failure instanceof TimeoutException && failure.getMessage() != null && failure.getMessage().contains("metadata")) {
                rememberMissing(topic);
            }
            return null;
        });
        return acknowledged;
    }

    /** Forgets the topics whose memory ran out first; past the bound, all of them (they are only a shortcut to a failure). */
    private void rememberMissing(String topic) {
        long now = System.currentTimeMillis();
        if (missingTopicsUntil.size() >= MAX_MISSING_TOPICS_REMEMBERED) {
            missingTopicsUntil.values().removeIf(until -> until <= now);
            if (missingTopicsUntil.size() >= MAX_MISSING_TOPICS_REMEMBERED) {
                missingTopicsUntil.clear();
            }
        }
        missingTopicsUntil.put(topic, now + MISSING_TOPIC_MEMORY_MS);
    }

    int missingTopicsRemembered() {
        return missingTopicsUntil.size();
    }

    private CompletableFuture<RecordMetadata> send(String topic, byte[] key, List<MessageHeader> headers, byte[] body) {
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
        } catch (RuntimeException refused) {
            acknowledged.completeExceptionally(refused);
        }
        return acknowledged;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        if (topics != null) {
            topics.close();
            sendAfterLookup.shutdown();
        }
    }
}
