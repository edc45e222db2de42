package io.github.redisdelaybridge.benchmark;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * Reads a target topic from its start to its current end and counts the message ids (x-message-id, set by
 * the bridge on every delivery): a rate counted by records alone would hide a lost message behind a
 * duplicate of another.
 */
final class DeliveryCounter {

    private DeliveryCounter() {
    }

    static Delivery count(String bootstrap, String topic, long expected) {
        Properties p = ArrivalRecorder.readerProperties(bootstrap);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            Set<String> ids = new HashSet<>();
            long records = 0;
            long deadline = System.currentTimeMillis() + 120_000;
            while (!reached(consumer, end)) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within 120 s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    Header id = record.headers().lastHeader("x-message-id");
                    ids.add(id == null ? "no id at " + record.partition() + "/" + record.offset()
                            : new String(id.value(), StandardCharsets.UTF_8));
                    records++;
                }
            }
            return new Delivery(expected, ids.size(), records - ids.size());
        }
    }

    private static boolean reached(KafkaConsumer<byte[], byte[]> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
