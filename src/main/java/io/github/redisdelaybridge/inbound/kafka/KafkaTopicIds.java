package io.github.redisdelaybridge.inbound.kafka;

import io.github.redisdelaybridge.message.Failures;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The id Kafka gave each inbound topic when it was created (KIP-516), which the generated message ids carry: a record
 * carries no topic id, so it is read with an admin client ({@code describeTopics}; Describe on the topic, which Read
 * implies) and kept per topic. It is read again whenever a consumer of this instance is assigned a partition of the topic
 * (it may have been created anew meanwhile), and when a partition's offsets go back: a topic deleted and created again
 * under a consumer that keeps its assignment resets it to the new topic's first offset. A re-read after an error goes
 * back too, and reads the same id.
 *
 * <p>An id that cannot be read (broker down, no Describe) is never guessed: the batch is held and the read retried.
 */
public final class KafkaTopicIds implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaTopicIds.class);
    private static final long READ_TIMEOUT_MS = 10_000;
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;
    /** While retrying, one warning every this many attempts (about 40 s at the longest backoff). */
    private static final int LOG_EVERY_ATTEMPTS = 20;
    /** Attempts while Kafka does not know a topic (about 1.5 s): a broker may learn of a new topic after its records are read. */
    private static final int UNKNOWN_TOPIC_ATTEMPTS = 5;

    private final Admin admin;
    private final Map<String, String> idByTopic = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> lastOffsetRead = new ConcurrentHashMap<>();

    /** @param adminConfig an admin client's configuration: the consumers' brokers and security */
    public KafkaTopicIds(Map<String, Object> adminConfig) {
        this.admin = Admin.create(adminConfig);
    }

    /**
     * The id of {@code topic} kept for a record at {@code offset} of {@code partition}; null when it must be read: not known
     * yet, forgotten at an assignment, or the partition's offsets went back (its id is forgotten then).
     */
    String kept(String topic, int partition, long offset) {
        Long last = lastOffsetRead.put(new TopicPartition(topic, partition), offset);
        if (last != null && offset <= last) {
            idByTopic.remove(topic);
            return null;
        }
        return idByTopic.get(topic);
    }

    /** A consumer of this instance was assigned these partitions: their topics' ids are read again before use. */
    void assigned(Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            idByTopic.remove(partition.topic());
            lastOffsetRead.remove(partition);
        }
    }

    /**
     * Reads the ids of {@code topics} from Kafka, retrying with backoff until it answers. Throws when the bridge stops,
     * or when a topic still does not exist after a few attempts (deleted: its records cannot be committed, and the
     * consumer gives up its partitions), so the batch is not acknowledged and Kafka hands it out again.
     */
    Map<String, String> read(Set<String> topics, BooleanSupplier stopping) throws InterruptedException {
        long backoffMs = FIRST_BACKOFF_MS;
        for (int attempt = 1; ; attempt++) {
            try {
                Map<String, String> ids = describe(topics);
                if (attempt > 1) {
                    LOG.info("read the topic ids of {} after {} attempts", topics, attempt);
                }
                idByTopic.putAll(ids);
                return ids;
            } catch (ExecutionException | TimeoutException | IllegalStateException e) {
                boolean unknownTopic = e.getCause() instanceof UnknownTopicOrPartitionException;
                if ((unknownTopic && attempt >= UNKNOWN_TOPIC_ATTEMPTS) || stopping.getAsBoolean()) {
                    throw new IllegalStateException("batch not acknowledged: could not read the topic ids of " + topics + " ("
                            + Failures.rootMessage(e) + ")", e);
                }
                if (attempt == 1 || attempt % LOG_EVERY_ATTEMPTS == 0) {
                    LOG.warn("could not read the topic ids of {} from Kafka (attempt {}), holding the batch and retrying: {}; messages"
                            + " without x-message-id get ids that carry it, and none is stored without it", topics, attempt,
                            Failures.rootMessage(e));
                }
                Thread.sleep(backoffMs);
                backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
            }
        }
    }

    private Map<String, String> describe(Set<String> topics) throws ExecutionException, TimeoutException, InterruptedException {
        Map<String, TopicDescription> descriptions = admin.describeTopics(TopicCollection.ofTopicNames(topics),
                new DescribeTopicsOptions().timeoutMs((int) READ_TIMEOUT_MS)).allTopicNames().get(READ_TIMEOUT_MS + 1_000, TimeUnit.MILLISECONDS);
        Map<String, String> ids = new TreeMap<>();
        descriptions.forEach((topic, description) -> {
            Uuid id = description.topicId();
            if (id == null || id.equals(Uuid.ZERO_UUID)) {
                throw new IllegalStateException("Kafka reports no topic id for " + topic + " (topic ids need Kafka 2.8 or later)");
            }
            ids.put(topic, id.toString());
        });
        return ids;
    }

    @Override
    public void close() {
        admin.close(java.time.Duration.ofSeconds(5));
    }
}
