package io.github.redisdelaybridge.inbound.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.github.redisdelaybridge.inbound.UpstreamAcknowledgement;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.component.kafka.consumer.KafkaManualCommit;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The acknowledgement of a Kafka batch, committed by real consumers of the embedded broker: a commit the group refuses
 * (here: the consumer was put out of the group for not polling within {@code max.poll.interval.ms}, as a rebalance does to
 * a member busy with a batch) is a warning and the records are read again by the group; any other failure is thrown on.
 * The records are read by {@link KafkaRecordsReader}, as the inbound route does, with a commit made the way camel-kafka's
 * sync commit manager makes it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchOffsetCommitTest {

    private static final int RECORDS = 3;
    /** Short, so that a consumer that stops polling leaves its group within a test; the bridge runs with Kafka's 5 min. */
    private static final int MAX_POLL_INTERVAL_MS = 1_000;

    private static CamelContext camel;
    private static KafkaTestClient kafka;
    private static Admin admin;
    private static KafkaTopicIds topicIds;

    private final String topic = "batch-offset-commit-" + UUID.randomUUID();
    private final String group = topic + "-bridge";

    @BeforeAll
    static void start() {
        camel = new DefaultCamelContext();
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()));
        topicIds = new KafkaTopicIds(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()));
    }

    @AfterAll
    static void stop() throws Exception {
        admin.close();
        topicIds.close();
        kafka.close();
        camel.close();
    }

    @Test
    void aBatchCommitsTheOffsetAfterItsLastRecord() throws Exception {
        publishRecords();
        try (KafkaConsumer<byte[], byte[]> consumer = groupConsumer()) {
            UpstreamAcknowledgement acknowledgement = readBatch(consumer);

            acknowledgement.acknowledge();
        }
        assertThat(committedOffset()).isEqualTo(RECORDS);
    }

    @Test
    void aCommitTheGroupRefusesIsAWarningAndTheRecordsAreReadAgain() throws Exception {
        publishRecords();
        try (LogCapture logs = new LogCapture(); KafkaConsumer<byte[], byte[]> consumer = groupConsumer()) {
            UpstreamAcknowledgement acknowledgement = readBatch(consumer);
            awaitGroupWithoutMembers(); // the consumer did not poll again in time: the group took its partition

            acknowledgement.acknowledge(); // threw CommitFailedException before, and Camel logged the batch as failed

            assertThat(logs.messagesAtLeast(Level.WARN, BatchOffsetCommit.class.getName())).singleElement().asString()
                    .contains("Kafka offset commit of " + topic + "-0 up to offset " + RECORDS + " refused",
                            "reads them again from the last committed offset");
        }
        assertThat(committedOffset()).as("the group's committed offset").isNull();
        try (KafkaConsumer<byte[], byte[]> nextOwner = groupConsumer()) {
            assertThat(pollRecords(nextOwner)).as("offsets the partition's next owner reads").extracting(ConsumerRecord::offset)
                    .containsExactly(0L, 1L, 2L);
        }
    }

    @Test
    void anyOtherFailureOfACommitIsThrownOn() throws Exception {
        publishRecords();
        KafkaConsumer<byte[], byte[]> consumer = groupConsumer();
        UpstreamAcknowledgement acknowledgement = readBatch(consumer);
        consumer.close();

        assertThatThrownBy(acknowledgement::acknowledge).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already been closed");
    }

    private void publishRecords() {
        kafka.createTopics(1, topic);
        for (int i = 0; i < RECORDS; i++) {
            kafka.sendAndWait(topic, 0, null, ("record " + i).getBytes(), Map.of("x-delay", "60000"));
        }
    }

    /** Polls all the records as one batch and reads it as the inbound route does. */
    private UpstreamAcknowledgement readBatch(KafkaConsumer<byte[], byte[]> consumer) throws InterruptedException {
        List<Exchange> exchanges = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : pollRecords(consumer)) {
            exchanges.add(exchangeOf(record, () -> consumer.commitSync(
                    Map.of(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1)),
                    Duration.ofSeconds(10))));
        }
        assertThat(exchanges).as("records polled").hasSize(RECORDS);
        return new KafkaRecordsReader(topicIds, () -> false).read(exchanges).acknowledgement();
    }

    /** An exchange as camel-kafka's batching consumer makes one per record. */
    private static Exchange exchangeOf(ConsumerRecord<byte[], byte[]> record, KafkaManualCommit commit) {
        Exchange exchange = new DefaultExchange(camel);
        exchange.getMessage().setHeader(KafkaConstants.TOPIC, record.topic());
        exchange.getMessage().setHeader(KafkaConstants.PARTITION, record.partition());
        exchange.getMessage().setHeader(KafkaConstants.OFFSET, record.offset());
        exchange.getMessage().setHeader(KafkaConstants.KEY, record.key());
        exchange.getMessage().setHeader(KafkaConstants.HEADERS, record.headers());
        exchange.getMessage().setHeader(KafkaConstants.MANUAL_COMMIT, commit);
        exchange.getMessage().setBody(record.value());
        return exchange;
    }

    /** Polls until the topic's records came, or 20 s passed. */
    private static List<ConsumerRecord<byte[], byte[]>> pollRecords(KafkaConsumer<byte[], byte[]> consumer) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long deadline = System.currentTimeMillis() + 20_000;
        while (records.size() < RECORDS && System.currentTimeMillis() < deadline) {
            consumer.poll(Duration.ofMillis(100)).forEach(records::add);
        }
        return records;
    }

    private KafkaConsumer<byte[], byte[]> groupConsumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, MAX_POLL_INTERVAL_MS);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 100);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p);
        consumer.subscribe(Set.of(topic));
        return consumer;
    }

    private void awaitGroupWithoutMembers() throws Exception {
        long deadline = System.currentTimeMillis() + 20_000;
        while (System.currentTimeMillis() < deadline) {
            if (admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get().members().isEmpty()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the consumer that stopped polling is still a member of " + group);
    }

    private Long committedOffset() {
        try {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                    .get(new TopicPartition(topic, 0));
            return committed == null ? null : committed.offset();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
