package io.github.redisdelaybridge.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.ConsumerGroupState;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** A plain Kafka producer, consumer and admin client for tests, working with raw bytes. */
public final class KafkaTestClient implements AutoCloseable {

    /** A record as a test consumer saw it, with the local time it was received. */
    public record Received(ConsumerRecord<byte[], byte[]> record, long receivedAtMs) {

        /** The x-message-id header: the identity deliveries are counted by. */
        public String messageId() {
            return header("x-message-id");
        }

        public String header(String name) {
            Header header = record.headers().lastHeader(name);
            return header == null || header.value() == null ? null : new String(header.value(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    private final String bootstrapServers;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Admin admin;

    public KafkaTestClient(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 16 * 1024 * 1024);
        this.producer = new KafkaProducer<>(p);
        this.admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers));
    }

    public void createTopics(int partitions, String... topics) {
        List<NewTopic> newTopics = new ArrayList<>();
        for (String topic : topics) {
            newTopics.add(new NewTopic(topic, partitions, (short) 1));
        }
        try {
            admin.createTopics(newTopics).all().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether the broker has the topic (a listing: asking for it by name could create it). */
    public boolean topicExists(String topic) {
        try {
            return admin.listTopics().names().get().contains(topic);
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Sends without waiting; call {@link #flush()} or get the future. */
    public Future<RecordMetadata> send(String topic, byte[] key, byte[] value, Map<String, String> textHeaders) {
        List<Header> headers = new ArrayList<>();
        textHeaders.forEach((name, text) -> headers.add(new RecordHeader(name, text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        return send(topic, key, value, headers);
    }

    public Future<RecordMetadata> send(String topic, byte[] key, byte[] value, List<Header> headers) {
        return producer.send(new ProducerRecord<>(topic, null, key, value, headers));
    }

    /** Sends to one partition and waits for the broker's acknowledgement. */
    public RecordMetadata sendAndWait(String topic, int partition, byte[] key, byte[] value, Map<String, String> textHeaders) {
        List<Header> headers = new ArrayList<>();
        textHeaders.forEach((name, text) -> headers.add(new RecordHeader(name, text == null ? null : text.getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        try {
            return producer.send(new ProducerRecord<>(topic, partition, key, value, headers)).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    public RecordMetadata sendAndWait(String topic, byte[] key, byte[] value, Map<String, String> textHeaders) {
        try {
            return send(topic, key, value, textHeaders).get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    public void flush() {
        producer.flush();
    }

    /**
     * The members of a consumer group, each by its {@code group.instance.id} (its member id when it has none), with the
     * partitions it is assigned; empty while the group has no member or is rebalancing.
     */
    public Map<String, Set<Integer>> groupMembers(String groupId) {
        try {
            ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(groupId)).describedGroups().get(groupId).get();
            if (group.state() != ConsumerGroupState.STABLE) {
                return Map.of();
            }
            Map<String, Set<Integer>> members = new java.util.TreeMap<>();
            for (MemberDescription member : group.members()) {
                Set<Integer> partitions = new java.util.TreeSet<>();
                member.assignment().topicPartitions().forEach(tp -> partitions.add(tp.partition()));
                members.put(member.groupInstanceId().orElse(member.consumerId()), partitions);
            }
            return members;
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a topic from the beginning until {@code count} records arrived or the timeout passed. */
    public List<Received> consume(String topic, int count, Duration timeout) {
        return consume(topic, count, timeout, Duration.ZERO);
    }

    /**
     * Like {@link #consume(String, int, Duration)}, then keeps reading for {@code settle} more, so that
     * records beyond the expected count (duplicates) are seen too.
     */
    public List<Received> consume(String topic, int count, Duration timeout, Duration settle) {
        List<Received> received = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = newConsumer()) {
            consumer.subscribe(Set.of(topic));
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            while (received.size() < count && System.currentTimeMillis() < deadline) {
                pollInto(consumer, received);
            }
            long settleUntil = System.currentTimeMillis() + settle.toMillis();
            while (System.currentTimeMillis() < settleUntil) {
                pollInto(consumer, received);
            }
        }
        return received;
    }

    private static void pollInto(KafkaConsumer<byte[], byte[]> consumer, List<Received> received) {
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
            received.add(new Received(record, System.currentTimeMillis()));
        }
    }

    public KafkaConsumer<byte[], byte[]> newConsumer() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        return new KafkaConsumer<>(p);
    }

    @Override
    public void close() {
        producer.close();
        admin.close();
    }
}
