package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.EmbeddedKafka;
import io.github.redisdelaybridge.testkit.KafkaTestClient;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RabbitMqMemoryAlarm;
import io.github.redisdelaybridge.testkit.RabbitMqTestClient;
import io.github.redisdelaybridge.testkit.RedisInspector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

/**
 * A RabbitMQ resource alarm (set and cleared here, on the shared broker) blocks the bridge's publishing
 * connection. Messages for Kafka targets keep flowing at the rate they fall due, while the RabbitMQ-bound ones
 * that fall due meanwhile wait; once the alarm clears they drain, none lost, none dead-lettered.
 *
 * Kafka-bound messages stream in at a steady rate all along; the RabbitMQ-bound ones are sent once the alarm is on
 * (rabbitmqctl is slow on a busy host) and fall due over the next seconds.
 *
 * <p>The RabbitMQ messages are 32 KiB each, so that a publisher that kept writing into the blocked connection would
 * fill its socket buffers and block in {@code basicPublish}, as a publisher on the dispatch loop did.
 */
class RabbitMqResourceAlarmTest {

    private static final String NAME = "rmq-alarm";
    private static final String INBOUND = NAME + ".inbound";
    private static final String KAFKA_TARGET = NAME + ".kafka-target";
    private static final String EXCHANGE = NAME + ".exchange";
    private static final String QUEUE = NAME + ".target";
    private static final long KAFKA_EVERY_MS = 5;
    private static final int RABBIT_MESSAGES = 300;
    private static final long RABBIT_SPREAD_MS = 3_000;
    /** How long the alarm stays on after the last RabbitMQ message fell due. */
    private static final long ALARM_AFTER_LAST_DUE_MS = 4_000;

    @Test
    void kafkaTargetsKeepTheirRateWhileRabbitMqIsBlockedAndRabbitMqMessagesDrainAfterwards() throws Exception {
        LocalRedis.deleteKeys("test-" + NAME);
        Map<String, String> settings = BridgeInstance.withRabbitMq(BridgeInstance.settings(NAME, LocalRedis.URI), NAME);
        try (KafkaTestClient kafka = new KafkaTestClient(EmbeddedKafka.bootstrapServers());
             RabbitMqTestClient rabbit = new RabbitMqTestClient();
             RedisInspector redis = new RedisInspector(LocalRedis.URI, "test-" + NAME, 1);
             LogCapture logs = new LogCapture()) {
            kafka.createTopics(2, INBOUND, KAFKA_TARGET, NAME + ".dlq");
            rabbit.declareQueue(QUEUE);
            rabbit.declareExchange(EXCHANGE, "direct");
            rabbit.bind(QUEUE, EXCHANGE, "alarm");
            Arrivals arrivals = new Arrivals(kafka.newConsumer());
            KafkaStream stream = new KafkaStream(kafka);
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                arrivals.start();
                stream.start();
                assertThat(arrivals.awaitTotal(200, Duration.ofSeconds(90))).as("Kafka deliveries flowing").isGreaterThanOrEqualTo(200);
                Thread.sleep(4_000);
                long alarmRequestedAt = System.currentTimeMillis();
                long alarmOnAt;
                long alarmOffRequestedAt;
                int rabbitDuringAlarm;
                try (RabbitMqMemoryAlarm alarm = RabbitMqMemoryAlarm.raise()) {
                    alarmOnAt = System.currentTimeMillis();
                    byte[] rabbitBody = new byte[32 * 1024];
                    for (int i = 0; i < RABBIT_MESSAGES; i++) {
                        kafka.send(INBOUND, null, rabbitBody, Map.of("x-delay", Long.toString(i * RABBIT_SPREAD_MS / RABBIT_MESSAGES),
                                "x-target", "rabbitmq:" + EXCHANGE + "/alarm", "x-message-id", "r-" + i));
                    }
                    kafka.flush();
                    Thread.sleep(RABBIT_SPREAD_MS + ALARM_AFTER_LAST_DUE_MS);
                    alarmOffRequestedAt = System.currentTimeMillis();
                    rabbitDuringAlarm = rabbit.readyAndUnackedTotal(QUEUE);
                }
                Thread.sleep(2_000);
                int kafkaSent = stream.stop();

                double before = arrivals.ratePerSecond(alarmRequestedAt - 3_000, alarmRequestedAt);
                double during = arrivals.ratePerSecond(alarmOnAt + 500, alarmOffRequestedAt);
                System.out.printf("FAULT-REPORT %s: Kafka deliveries/s before the alarm %.0f, during %.0f (%d s); RabbitMQ messages in"
                        + " the queue when the alarm was lifted: %d of %d%n", NAME, before, during, (alarmOffRequestedAt - alarmOnAt) / 1000,
                        rabbitDuringAlarm, RABBIT_MESSAGES);
                assertThat(before).as("Kafka deliveries per second before the alarm").isGreaterThan(50);
                assertThat(during).as("Kafka deliveries per second during the alarm (before: %.0f)", before).isGreaterThan(before * 0.5);
                assertThat(logs.messagesContaining("RabbitMQ blocked the publishing connection")).as("the broker blocked the bridge").isNotEmpty();
                assertThat(rabbitDuringAlarm).as("RabbitMQ messages that got through the alarm").isLessThan(RABBIT_MESSAGES / 2);

                // a message written before the broker blocked may time out, be retried and arrive twice: count distinct ids
                List<RabbitMqTestClient.Received> rabbitReceived = new ArrayList<>();
                Set<String> rabbitIds = new HashSet<>();
                long rabbitDeadline = System.currentTimeMillis() + 90_000;
                while (rabbitIds.size() < RABBIT_MESSAGES && System.currentTimeMillis() < rabbitDeadline) {
                    List<RabbitMqTestClient.Received> more = rabbit.consume(QUEUE, RABBIT_MESSAGES - rabbitIds.size(), Duration.ofSeconds(5));
                    rabbitReceived.addAll(more);
                    more.forEach(r -> rabbitIds.add(r.headerText("x-message-id")));
                }
                assertThat(rabbitIds).as("every RabbitMQ-bound message after the alarm").hasSize(RABBIT_MESSAGES);
                assertThat(arrivals.awaitDistinct(kafkaSent, Duration.ofSeconds(30))).as("every Kafka-bound message").isEqualTo(kafkaSent);
                assertThat(kafka.consume(NAME + ".dlq", 1, Duration.ofSeconds(2))).as("dead letters").isEmpty();
                assertThat(RedisInspector.awaitValue(() -> redis.pending() + redis.inFlight(), 0, Duration.ofSeconds(10)))
                        .as("left in Redis").isZero();
                System.out.printf("FAULT-REPORT %s: sent=%d delivered=%d duplicates=%d dead-lettered=0 missing=0%n", NAME,
                        kafkaSent + RABBIT_MESSAGES, arrivals.distinct() + rabbitIds.size(),
                        arrivals.total() - arrivals.distinct() + rabbitReceived.size() - rabbitIds.size());
            } finally {
                stream.stop();
                arrivals.stop();
                rabbit.deleteQueue(INBOUND);
            }
        } finally {
            if (RabbitMqMemoryAlarm.memoryAlarmOn()) {
                System.err.println("RabbitMQ memory alarm still on after " + NAME);
            }
        }
    }

    /** Kafka-bound messages due at once, one every {@value #KAFKA_EVERY_MS} ms, until stopped. */
    private static final class KafkaStream {
        private final KafkaTestClient kafka;
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;
        private volatile int sent;

        KafkaStream(KafkaTestClient kafka) {
            this.kafka = kafka;
            this.thread = new Thread(this::run, "kafka-stream");
        }

        void start() {
            thread.start();
        }

        private void run() {
            long next = System.currentTimeMillis();
            while (running.get()) {
                String id = "k-" + sent;
                kafka.send(INBOUND, null, id.getBytes(StandardCharsets.UTF_8), Map.of("x-delay", "0", "x-target", "kafka:" + KAFKA_TARGET,
                        "x-message-id", id));
                sent++;
                next += KAFKA_EVERY_MS;
                long wait = next - System.currentTimeMillis();
                if (wait > 0) {
                    try {
                        Thread.sleep(wait);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }

        /** Stops sending; returns how many were sent (all acknowledged by Kafka). */
        int stop() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
            kafka.flush();
            return sent;
        }
    }

    /** Records when each Kafka-target record arrives, on a thread of its own. */
    private static final class Arrivals {
        private final KafkaConsumer<byte[], byte[]> consumer;
        private final ConcurrentLinkedQueue<long[]> times = new ConcurrentLinkedQueue<>();
        private final Set<String> ids = java.util.concurrent.ConcurrentHashMap.newKeySet();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Arrivals(KafkaConsumer<byte[], byte[]> consumer) {
            this.consumer = consumer;
            this.thread = new Thread(this::run, "arrivals");
        }

        void start() {
            thread.start();
        }

        private void run() {
            consumer.subscribe(List.of(KAFKA_TARGET));
            while (running.get()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                    times.add(new long[] {System.currentTimeMillis()});
                    ids.add(new String(record.value(), StandardCharsets.UTF_8));
                }
            }
            consumer.close();
        }

        double ratePerSecond(long from, long to) {
            List<long[]> all = new ArrayList<>(times);
            long count = all.stream().filter(t -> t[0] >= from && t[0] < to).count();
            return count * 1000.0 / Math.max(1, to - from);
        }

        int awaitDistinct(int expected, Duration timeout) throws InterruptedException {
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            while (ids.size() < expected && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            return ids.size();
        }

        int awaitTotal(int expected, Duration timeout) throws InterruptedException {
            long deadline = System.currentTimeMillis() + timeout.toMillis();
            while (times.size() < expected && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            return times.size();
        }

        int distinct() {
            return ids.size();
        }

        int total() {
            return times.size();
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(5_000);
        }
    }
}
