package io.github.redisdelaybridge.benchmark;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/** Publishes 100-byte delayed messages to an inbound topic: as fast as possible, or at a steady rate. */
final class KafkaLoad {

    private KafkaLoad() {
    }

    static List<Header> delayHeaders(long delayMs, String targetTopic) {
        return List.of(new RecordHeader("x-delay", Long.toString(delayMs).getBytes(StandardCharsets.UTF_8)),
                new RecordHeader("x-target", ("kafka:" + targetTopic).getBytes(StandardCharsets.UTF_8)));
    }

    /** Sends {@code count} records as fast as the producer takes them and waits for every ack. */
    static void publish(KafkaProducer<byte[], byte[]> producer, String topic, int count, byte[] payload, List<Header> headers)
            throws Exception {
        Future<RecordMetadata> last = null;
        for (int i = 0; i < count; i++) {
            last = producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, payload, headers));
        }
        producer.flush();
        if (last != null) {
            last.get();
        }
    }

    /**
     * Sends at {@code ratePerSecond} for {@code durationMs}, spread evenly (one send every 1/rate s, caught up
     * in bursts if the sender falls behind). Returns how many were sent.
     */
    static int publishSteady(KafkaProducer<byte[], byte[]> producer, String topic, int ratePerSecond, long durationMs,
                             byte[] payload, List<Header> headers) {
        int total = (int) (ratePerSecond * durationMs / 1000);
        paced(ratePerSecond, total, i -> producer.send(new ProducerRecord<byte[], byte[]>(topic, null, (byte[]) null, payload, headers)));
        producer.flush();
        return total;
    }

    /** Calls {@code send} {@code total} times at {@code ratePerSecond}, spread evenly, caught up in bursts if it falls behind. */
    static <E extends Exception> void paced(int ratePerSecond, int total, Send<E> send) throws E {
        pacedWhile(ratePerSecond, i -> i < total, send);
    }

    /**
     * Calls {@code send} at {@code ratePerSecond}, spread evenly and caught up in bursts if it falls behind, for as long as
     * {@code more} holds for the next index. Returns how many sends it made.
     */
    static <E extends Exception> int pacedWhile(int ratePerSecond, IntPredicate more, Send<E> send) throws E {
        long start = System.nanoTime();
        double intervalNanos = 1e9 / ratePerSecond;
        int i = 0;
        for (; more.test(i); i++) {
            long sendAt = start + (long) (i * intervalNanos);
            long wait = sendAt - System.nanoTime();
            if (wait > 200_000) {
                LockSupport.parkNanos(wait);
            }
            send.send(i);
        }
        return i;
    }

    /** One send of a paced load. */
    interface Send<E extends Exception> {
        void send(int index) throws E;
    }
}
