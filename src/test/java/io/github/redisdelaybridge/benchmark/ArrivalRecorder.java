package io.github.redisdelaybridge.benchmark;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a target topic from the start on its own thread and records each arrival's lateness: the
 * local receive time minus the x-delay-due-at header (Redis's clock, on this same machine). Lateness is
 * also split at the record's CreateTime (stamped by the bridge's producer when it sends): due -> sent is
 * the bridge's part (noticing, claiming, decoding), sent -> received is Kafka's (linger, broker, fetch).
 */
final class ArrivalRecorder implements AutoCloseable {

    final LatencyRecorder lateness = new LatencyRecorder();
    final LatencyRecorder dueToSent = new LatencyRecorder();
    final LatencyRecorder sentToReceived = new LatencyRecorder();
    /**
     * Lateness as the producer sees it: arrival minus the due time it meant (its publish time plus the delay), in the
     * {@value #INTENDED_DUE_AT} header the load generator sets; counts the time the message took to reach the bridge.
     */
    final LatencyRecorder fromIntendedDue = new LatencyRecorder();
    static final String INTENDED_DUE_AT = "bench-intended-due-at";
    private final AtomicLong arrivals = new AtomicLong();
    private final AtomicLong firstArrivalMs = new AtomicLong();
    private final AtomicLong lastArrivalMs = new AtomicLong();
    /** Every recorded arrival's due time and lateness, when asked for; else null. */
    private final LatenessTimeline timeline;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final LongPredicate recordDueAt;
    private final Thread thread;
    private volatile boolean running = true;

    /** A consumer that reads topics by assignment (no group, no commits), in large polls: for counting what arrived. */
    static Properties readerProperties(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        return p;
    }

    /** Records the lateness of arrivals whose due time passes {@code recordDueAt}; counts every arrival. */
    ArrivalRecorder(String bootstrap, String topic, int partitions, LongPredicate recordDueAt) {
        this(bootstrap, topic, partitions, recordDueAt, null);
    }

    /** The same, also recording each recorded arrival's due time and lateness in {@code timeline} (null: not). */
    ArrivalRecorder(String bootstrap, String topic, int partitions, LongPredicate recordDueAt, LatenessTimeline timeline) {
        this.timeline = timeline;
        Properties p = readerProperties(bootstrap);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        this.consumer = new KafkaConsumer<>(p);
        List<TopicPartition> assigned = new ArrayList<>();
        for (int i = 0; i < partitions; i++) {
            assigned.add(new TopicPartition(topic, i));
        }
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        this.recordDueAt = recordDueAt;
        this.thread = new Thread(this::run, "arrivals-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
                long now = System.currentTimeMillis();
                for (ConsumerRecord<byte[], byte[]> record : records) {
                    Header due = record.headers().lastHeader("x-delay-due-at");
                    if (due != null) {
                        long dueAt = Long.parseLong(new String(due.value(), StandardCharsets.US_ASCII));
                        if (recordDueAt.test(dueAt)) {
                            lateness.record(now - dueAt);
                            if (timeline != null) {
                                timeline.record(dueAt, now - dueAt);
                            }
                            dueToSent.record(record.timestamp() - dueAt);
                            sentToReceived.record(now - record.timestamp());
                            Header intended = record.headers().lastHeader(INTENDED_DUE_AT);
                            if (intended != null) {
                                fromIntendedDue.record(now - Long.parseLong(new String(intended.value(), StandardCharsets.US_ASCII)));
                            }
                        }
                    }
                }
                if (!records.isEmpty()) {
                    firstArrivalMs.compareAndSet(0, now);
                    lastArrivalMs.set(now);
                    arrivals.addAndGet(records.count());
                }
            }
        } catch (org.apache.kafka.common.errors.WakeupException stopping) {
            // closed
        } finally {
            consumer.close(Duration.ofSeconds(1));
        }
    }

    long arrivals() {
        return arrivals.get();
    }

    /** The due times and lateness recorded, or null when none were asked for. */
    LatenessTimeline timeline() {
        return timeline;
    }

    /** When the first record arrived (epoch ms), or 0 before. */
    long firstArrivalMs() {
        return firstArrivalMs.get();
    }

    long lastArrivalMs() {
        return lastArrivalMs.get();
    }

    /** Waits until {@code expected} records arrived; returns false on timeout. */
    boolean await(long expected, long timeoutMs) throws InterruptedException {
        return BenchEnvironment.awaitMillis(() -> arrivals.get() >= expected, timeoutMs, 10) >= 0;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
