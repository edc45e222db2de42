package io.github.redisdelaybridge.inbound.kafka;

import io.github.redisdelaybridge.inbound.GeneratedIds;
import io.github.redisdelaybridge.inbound.InboundBatch;
import io.github.redisdelaybridge.inbound.InboundMessage;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Reads one camel-kafka poll batch (a list of exchanges, one per record) into broker-neutral inbound
 * messages. Headers are taken from the raw Kafka record, so their order, repeated names and null values
 * survive; the acknowledgement ({@link BatchOffsetCommit}) commits, per partition, the offset after the last record of the batch.
 * A record's default id carries its topic's id ({@link GeneratedIds#kafka}, {@link KafkaTopicIds}).
 */
public final class KafkaRecordsReader {

    private final KafkaTopicIds topicIds;
    private final BooleanSupplier stopping;

    /** @param stopping whether the bridge is stopping: a topic id not read by then leaves the batch unacknowledged */
    public KafkaRecordsReader(KafkaTopicIds topicIds, BooleanSupplier stopping) {
        this.topicIds = topicIds;
        this.stopping = stopping;
    }

    /** Camel bean method. */
    public InboundBatch read(List<Exchange> records) throws InterruptedException {
        Map<String, String> idByTopic = topicIdsOf(records);
        List<InboundMessage> messages = new ArrayList<>(records.size());
        Map<String, BatchOffsetCommit.PartitionCommit> lastCommitByPartition = new LinkedHashMap<>();
        for (Exchange record : records) {
            Message in = record.getMessage();
            String topic = in.getHeader(KafkaConstants.TOPIC, String.class);
            Integer partition = in.getHeader(KafkaConstants.PARTITION, Integer.class);
            Long offset = in.getHeader(KafkaConstants.OFFSET, Long.class);
            messages.add(new InboundMessage(
                    Broker.KAFKA.scheme() + topic + "/" + partition + "@" + offset,
                    topic,
                    GeneratedIds.kafka(topic, idByTopic.get(topic), partition, offset),
                    in.getHeader(KafkaConstants.KEY, byte[].class),
                    headersOf(in.getHeader(KafkaConstants.HEADERS, Headers.class)),
                    Map.of(),
                    in.getBody(byte[].class)));
            KafkaManualCommit commit = in.getHeader(KafkaConstants.MANUAL_COMMIT, KafkaManualCommit.class);
            if (commit != null) {
                lastCommitByPartition.put(topic + "/" + partition, new BatchOffsetCommit.PartitionCommit(topic, partition, offset, commit));
            }
        }
        return new InboundBatch(messages, new BatchOffsetCommit(List.copyOf(lastCommitByPartition.values())));
    }

    /** The id of each topic of the batch: kept ones, and the others read from Kafka (for every record of their topic). */
    private Map<String, String> topicIdsOf(List<Exchange> records) throws InterruptedException {
        Map<String, String> ids = new HashMap<>();
        Set<String> toRead = new TreeSet<>();
        for (Exchange record : records) {
            Message in = record.getMessage();
            String topic = in.getHeader(KafkaConstants.TOPIC, String.class);
            String kept = topicIds.kept(topic, in.getHeader(KafkaConstants.PARTITION, Integer.class), in.getHeader(KafkaConstants.OFFSET, Long.class));
            if (kept == null) {
                toRead.add(topic);
            } else {
                ids.putIfAbsent(topic, kept);
            }
        }
        if (!toRead.isEmpty()) {
            ids.putAll(topicIds.read(toRead, stopping));
        }
        return ids;
    }

    private static List<MessageHeader> headersOf(Headers kafkaHeaders) {
        List<MessageHeader> headers = new ArrayList<>();
        if (kafkaHeaders != null) {
            for (Header header : kafkaHeaders) {
                headers.add(new MessageHeader(header.key(), header.value()));
            }
        }
        return headers;
    }
}
