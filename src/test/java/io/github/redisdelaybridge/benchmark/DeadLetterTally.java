package io.github.redisdelaybridge.benchmark;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

/**
 * The dead letters on a dead-letter topic, read from its start to its current end, counted by what each one was sent
 * in for (a label looked up by its x-dead-letter-origin, the inbound record's kafka:topic/partition@offset) and by its
 * x-dead-letter-reason.
 */
final class DeadLetterTally {

    /** Label of a dead letter whose origin is not among the labelled ones. */
    static final String UNLABELLED = "unlabelled";

    /** Dead letters counted by label, then by reason; both in name order. */
    private final Map<String, Map<String, Long>> counts = new TreeMap<>();

    private DeadLetterTally() {
    }

    static DeadLetterTally read(String bootstrap, String topic, Map<String, String> labelByOrigin) {
        DeadLetterTally tally = new DeadLetterTally();
        Properties p = ArrivalRecorder.readerProperties(bootstrap);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.currentTimeMillis() + 120_000;
            while (!end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue())) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within 120 s");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String origin = text(record.headers().lastHeader("x-dead-letter-origin"));
                    String label = labelByOrigin.getOrDefault(origin, UNLABELLED);
                    String reason = String.valueOf(text(record.headers().lastHeader("x-dead-letter-reason")));
                    tally.counts.computeIfAbsent(label, l -> new TreeMap<>()).merge(reason, 1L, Long::sum);
                }
            }
        }
        return tally;
    }

    /** Dead letters of this label, by reason (empty if none). */
    Map<String, Long> reasons(String label) {
        return counts.getOrDefault(label, Map.of());
    }

    long count(String label, String reason) {
        return reasons(label).getOrDefault(reason, 0L);
    }

    /** Dead letters with a label, that is all but the unlabelled ones. */
    long labelled() {
        return counts.entrySet().stream().filter(e -> !e.getKey().equals(UNLABELLED))
                .mapToLong(e -> e.getValue().values().stream().mapToLong(Long::longValue).sum()).sum();
    }

    long count(String label) {
        return reasons(label).values().stream().mapToLong(Long::longValue).sum();
    }

    private static String text(Header header) {
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
