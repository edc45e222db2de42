package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.testkit.KafkaTestClient.Received;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/** Collects everything arriving on some topics in the background, for tests that count deliveries. */
public final class TargetCollector implements AutoCloseable {

    private final List<Received> received = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    public TargetCollector(KafkaTestClient kafka, String... topics) {
        this.thread = new Thread(() -> {
            try (KafkaConsumer<byte[], byte[]> consumer = kafka.newConsumer()) {
                consumer.subscribe(List.of(topics));
                while (running) {
                    for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(50))) {
                        synchronized (received) {
                            received.add(new Received(record, System.currentTimeMillis()));
                        }
                    }
                }
            }
        }, "target-collector");
        thread.setDaemon(true);
        thread.start();
    }

    public List<Received> received() {
        synchronized (received) {
            return new ArrayList<>(received);
        }
    }

    public int distinct(Function<Received, String> identity) {
        Set<String> ids = new HashSet<>();
        for (Received r : received()) {
            ids.add(identity.apply(r));
        }
        return ids.size();
    }

    /**
     * Waits until every message of {@code messageIds} arrived (by x-message-id); returns when each first did (local
     * time, epoch ms), for those that did.
     */
    public Map<String, Long> awaitArrivals(Collection<String> messageIds, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        Map<String, Long> arrivals = arrivals(messageIds);
        while (arrivals.size() < messageIds.size() && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            arrivals = arrivals(messageIds);
        }
        return arrivals;
    }

    private Map<String, Long> arrivals(Collection<String> messageIds) {
        Map<String, Long> arrivals = new HashMap<>();
        for (Received r : received()) {
            if (messageIds.contains(r.messageId())) {
                arrivals.merge(r.messageId(), r.receivedAtMs(), Math::min);
            }
        }
        return arrivals;
    }

    /** Waits until {@code expected} distinct identities arrived; returns how many did. */
    public int awaitDistinct(int expected, Function<Received, String> identity, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        int seen = distinct(identity);
        while (seen < expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
            seen = distinct(identity);
        }
        return seen;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5_000);
    }
}
