package io.github.redisdelaybridge.e2e;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A record whose x-delay is about a megabyte of digits ending in a letter (it fits Kafka's default 1 MiB record limit)
 * is dead-lettered at once, and does not hold its partition: the next record, with the same key and a 1 s delay,
 * arrives on time. The bridge's payload limit is above the record's size, so the header really is parsed.
 */
class HugeDelayHeaderTest {

    private static final String NAME = "hugedelay";
    private static final String INBOUND = NAME + ".inbound";
    private static final String TARGET = NAME + ".target";
    private static final String DLQ = NAME + ".dlq";
    private static final int HUGE_DELAY_BYTES = 1_000_000;
    private static final long DELAY_MS = 1_000;
    /** How late the valid record may arrive after the due time its producer asked for, on a loaded machine. */
    private static final long LATE_BOUND_MS = 2_000;

    private static KafkaTestClient kafka;
    private static BridgeInstance bridge;

    @BeforeAll
    static void startBridge() {
        LocalRedis.deleteKeys("test-" + NAME);
        kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
        kafka.createTopics(1, INBOUND, TARGET, DLQ);
        Map<String, String> settings = BridgeInstance.settings(NAME, LocalRedis.URI);
        settings.put("bridge.payload.max-bytes", Integer.toString(2 * HUGE_DELAY_BYTES));
        settings.put("bridge.targets.allowed", "kafka:" + TARGET);
        bridge = BridgeInstance.start(settings);
        // the consumer has its partition and the path is warm before anything is timed
        kafka.sendAndWait(INBOUND, 0, bytes("k"), bytes("warm-up"), headers("x-delay", "0", "x-target", "kafka:" + TARGET, "x-message-id", "warm-up"));
        assertThat(kafka.consume(TARGET, 1, Duration.ofSeconds(30))).as("warm-up delivered").hasSize(1);
    }

    @AfterAll
    static void stopBridge() {
        bridge.close();
        kafka.close();
    }

    @Test
    void aMegabyteDelayIsDeadLetteredAndTheNextRecordWithTheSameKeyArrivesOnTime() {
        String hugeDelay = "1".repeat(HUGE_DELAY_BYTES - 1) + "x";
        assertHugeHeaderDoesNotHoldThePartition("huge-delay",
                headers("x-delay", hugeDelay, "x-target", "kafka:" + TARGET, "x-message-id", "huge-delay"));
    }

    @Test
    void aRescheduleControlWithAMegabyteDelayIsDeadLetteredAndTheNextRecordArrivesOnTime() {
        String hugeDelay = "2".repeat(HUGE_DELAY_BYTES - 1) + "x";
        assertHugeHeaderDoesNotHoldThePartition("huge-reschedule",
                headers("x-control", "reschedule", "x-message-id", "warm-up", "x-delay", hugeDelay, "marker", "huge-reschedule"));
    }

    private static void assertHugeHeaderDoesNotHoldThePartition(String marker, Map<String, String> hugeHeaders) {
        String validId = "valid-after-" + marker;
        String hugeOrigin;
        try (KafkaConsumer<byte[], byte[]> target = kafka.newConsumer()) {
            // read from the current end, assigned before anything is sent, so arrival is seen when it happens
            TopicPartition partition = new TopicPartition(TARGET, 0);
            target.assign(List.of(partition));
            target.seekToEnd(List.of(partition));
            target.position(partition);

            Future<RecordMetadata> huge = kafka.send(INBOUND, bytes("k"), bytes(marker), hugeHeaders);
            long sentAt = System.currentTimeMillis();
            kafka.sendAndWait(INBOUND, 0, bytes("k"), bytes(validId),
                    headers("x-delay", Long.toString(DELAY_MS), "x-target", "kafka:" + TARGET, "x-message-id", validId));
            long askedDueAt = sentAt + DELAY_MS;
            hugeOrigin = "kafka:" + INBOUND + "/0@" + offset(huge);

            long arrivedAt = awaitBody(target, validId, Duration.ofSeconds(30));
            assertThat(arrivedAt).as("%s not early", validId).isGreaterThanOrEqualTo(askedDueAt);
            assertThat(arrivedAt - askedDueAt).as("ms %s arrived after the due time its producer asked for", validId)
                    .isLessThanOrEqualTo(LATE_BOUND_MS);
        }
        try (KafkaConsumer<byte[], byte[]> deadLetters = kafka.newConsumer()) {
            deadLetters.assign(List.of(new TopicPartition(DLQ, 0)));
            deadLetters.seekToBeginning(List.of(new TopicPartition(DLQ, 0)));
            // the dead letter is larger than the dead-letter topic's limit, so it comes without body, key and headers
            ConsumerRecord<byte[], byte[]> dead = awaitRecord(deadLetters, r -> hugeOrigin.equals(header(r, "x-dead-letter-origin")),
                    hugeOrigin, Duration.ofSeconds(30));
            assertThat(header(dead, "x-dead-letter-reason")).isEqualTo("invalid-delay");
            assertThat(header(dead, "x-dead-letter-detail")).contains("x-delay").contains("1000000 bytes").hasSizeLessThan(300);
        }
    }

    /** When the record with that body arrived; fails after {@code timeout}. */
    private static long awaitBody(KafkaConsumer<byte[], byte[]> consumer, String body, Duration timeout) {
        awaitRecord(consumer, r -> r.value() != null && body.equals(new String(r.value(), StandardCharsets.UTF_8)), body, timeout);
        return System.currentTimeMillis();
    }

    private static ConsumerRecord<byte[], byte[]> awaitRecord(KafkaConsumer<byte[], byte[]> consumer,
                                                              Predicate<ConsumerRecord<byte[], byte[]>> wanted, String what, Duration timeout) {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (System.currentTimeMillis() < deadline) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(20))) {
                if (wanted.test(record)) {
                    return record;
                }
            }
        }
        throw new AssertionError("no record '" + what + "' within " + timeout.toSeconds() + " s");
    }

    private static long offset(Future<RecordMetadata> sent) {
        try {
            return sent.get().offset();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static Map<String, String> headers(String... pairs) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            headers.put(pairs[i], pairs[i + 1]);
        }
        return headers;
    }
}
