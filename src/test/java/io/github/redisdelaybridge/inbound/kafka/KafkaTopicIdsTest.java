package io.github.redisdelaybridge.inbound.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.inbound.InboundMessage;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.component.kafka.KafkaConstants;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Kafka record's default id carries the id the embedded broker gave its topic, read with a real admin client: the same
 * for the same record read again, new for a topic deleted and created again (even when no assignment tells of it: the
 * partition's offsets going back do), and when it cannot be read the batch is held, never given an id without it.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KafkaTopicIdsTest {

    private static CamelContext camel;
    private static KafkaTestClient kafka;
    private static Admin admin;

    private final String topic = "topic-ids-" + UUID.randomUUID();

    @BeforeAll
    static void start() {
        camel = new DefaultCamelContext();
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, EmbeddedKafka.bootstrapServers()));
    }

    @AfterAll
    static void stop() throws Exception {
        admin.close();
        kafka.close();
        camel.close();
    }

    @Test
    void theDefaultIdCarriesTheTopicIdAndIsTheSameWhenTheRecordIsReadAgain() throws Exception {
        kafka.createTopics(2, topic);
        String topicId = topicIdOf(topic);
        try (KafkaTopicIds topicIds = topicIds(EmbeddedKafka.bootstrapServers())) {
            KafkaRecordsReader reader = new KafkaRecordsReader(topicIds, () -> false);

            assertThat(defaultIds(reader, 0, 0, 1)).containsExactly(topic + "@" + topicId + "-0-0", topic + "@" + topicId + "-0-1");
            assertThat(defaultIds(reader, 1, 7)).containsExactly(topic + "@" + topicId + "-1-7");
            assertThat(defaultIds(reader, 0, 0, 1)).as("read again after a rebalance or an error").containsExactly(
                    topic + "@" + topicId + "-0-0", topic + "@" + topicId + "-0-1");
            topicIds.assigned(List.of(new TopicPartition(topic, 0)));
            assertThat(defaultIds(reader, 0, 2)).containsExactly(topic + "@" + topicId + "-0-2");
        }
    }

    @Test
    void aTopicCreatedAgainGetsItsNewIdWhenItsOffsetsGoBack() throws Exception {
        kafka.createTopics(1, topic);
        String firstId = topicIdOf(topic);
        try (KafkaTopicIds topicIds = topicIds(EmbeddedKafka.bootstrapServers())) {
            KafkaRecordsReader reader = new KafkaRecordsReader(topicIds, () -> false);
            assertThat(defaultIds(reader, 0, 0, 1, 2)).last().isEqualTo(topic + "@" + firstId + "-0-2");

            admin.deleteTopics(Set.of(topic)).all().get();
            long deadline = System.currentTimeMillis() + 30_000;
            while (kafka.topicExists(topic) && System.currentTimeMillis() < deadline) {
                Thread.sleep(100);
            }
            kafka.createTopics(1, topic);
            String secondId = topicIdOf(topic);
            assertThat(secondId).isNotEqualTo(firstId);

            assertThat(defaultIds(reader, 0, 0)).as("no assignment told of it").containsExactly(topic + "@" + secondId + "-0-0");
        }
    }

    @Test
    void aTopicIdThatCannotBeReadHoldsTheBatch() throws Exception {
        long stopAt = System.currentTimeMillis() + 3_000;
        try (KafkaTopicIds unreachable = topicIds("127.0.0.1:1")) {
            KafkaRecordsReader reader = new KafkaRecordsReader(unreachable, () -> System.currentTimeMillis() > stopAt);
            long start = System.currentTimeMillis();

            assertThatThrownBy(() -> reader.read(records(0, 0))).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("batch not acknowledged").hasMessageContaining(topic);
            assertThat(System.currentTimeMillis() - start).as("retried until the bridge stopped").isGreaterThanOrEqualTo(2_500);
        }
    }

    private static KafkaTopicIds topicIds(String bootstrapServers) {
        return new KafkaTopicIds(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 1_000));
    }

    /** The topic's id, once the broker's metadata has the topic (just after its creation it may not yet). */
    private static String topicIdOf(String topic) throws Exception {
        long deadline = System.currentTimeMillis() + 30_000;
        while (true) {
            try {
                return admin.describeTopics(TopicCollection.ofTopicNames(List.of(topic))).allTopicNames().get().get(topic).topicId().toString();
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.currentTimeMillis() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private List<String> defaultIds(KafkaRecordsReader reader, int partition, long... offsets) throws InterruptedException {
        return reader.read(records(partition, offsets)).messages().stream().map(InboundMessage::defaultMessageId).toList();
    }

    /** Exchanges as camel-kafka's batching consumer makes them, one per record. */
    private List<Exchange> records(int partition, long... offsets) {
        List<Exchange> exchanges = new ArrayList<>();
        for (long offset : offsets) {
            Exchange exchange = new DefaultExchange(camel);
            exchange.getMessage().setHeader(KafkaConstants.TOPIC, topic);
            exchange.getMessage().setHeader(KafkaConstants.PARTITION, partition);
            exchange.getMessage().setHeader(KafkaConstants.OFFSET, offset);
            exchange.getMessage().setBody(new byte[0]);
            exchanges.add(exchange);
        }
        return exchanges;
    }
}
