package io.github.redisdelaybridge.inbound.kafka;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.common.TopicPartition;

/**
 * Whether each inbound Kafka consumer of this instance has joined its group: it received an assignment (an empty one
 * counts: a group may have more consumers than partitions) and has not lost it since. Told by the rebalance listener
 * each consumer's subscription goes through ({@link ObservedKafkaClientFactory}); readiness reads it. It tells
 * {@link KafkaTopicIds} of each assignment, so that the ids of the assigned topics are read again.
 */
public final class KafkaConsumerAssignments {

    /** What one consumer holds: -1 until its first assignment and after it lost its partitions, else the partition count. */
    private final Map<Long, AtomicLong> partitionsByConsumer = new ConcurrentHashMap<>();
    private final AtomicLong nextConsumer = new AtomicLong();
    private final KafkaTopicIds topicIds;

    /** @param topicIds told of every assignment (null: none to tell) */
    public KafkaConsumerAssignments(KafkaTopicIds topicIds) {
        this.topicIds = topicIds;
    }

    public KafkaConsumerAssignments() {
        this(null);
    }

    /** A consumer was created: it counts as not assigned until its first assignment. Returns its number. */
    long created() {
        long consumer = nextConsumer.incrementAndGet();
        partitionsByConsumer.put(consumer, new AtomicLong(-1));
        return consumer;
    }

    void closed(long consumer) {
        partitionsByConsumer.remove(consumer);
    }

    /** Wraps the rebalance listener a consumer subscribes with, to follow its assignment. */
    ConsumerRebalanceListener following(long consumer, ConsumerRebalanceListener listener) {
        return new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                update(consumer, -partitions.size(), false);
                if (listener != null) {
                    listener.onPartitionsRevoked(partitions);
                }
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                update(consumer, partitions.size(), true);
                if (topicIds != null) {
                    topicIds.assigned(partitions); // before the consumer fetches from them
                }
                if (listener != null) {
                    listener.onPartitionsAssigned(partitions);
                }
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // out of the group (a missed heartbeat, a session timeout): not assigned until it joins again
                AtomicLong held = partitionsByConsumer.get(consumer);
                if (held != null) {
                    held.set(-1);
                }
                if (listener != null) {
                    listener.onPartitionsLost(partitions);
                }
            }
        };
    }

    private void update(long consumer, int change, boolean assigned) {
        AtomicLong held = partitionsByConsumer.get(consumer);
        if (held != null) {
            held.updateAndGet(current -> assigned ? Math.max(0, current) + change : Math.max(0, current + change));
        }
    }

    /** Partitions held by each consumer of this instance (-1: not assigned yet, or lost), in creation order. */
    public List<Long> partitionsByConsumer() {
        return partitionsByConsumer.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getValue().get()).toList();
    }
}
