package io.github.redisdelaybridge.benchmark;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The naive design a Redis delay queue starts from, as a reference: ZADD each message (member = due time + sequence + payload, score = due time);
 * a poller wakes every second, reads everything due with ZRANGEBYSCORE, and ZREMs each message on its
 * own round trip; a message whose ZREM returned 1 is delivered (here: handed to the consumer code, so no
 * Kafka cost is charged to it).
 */
final class NaivePollingReference {

    static final long POLL_INTERVAL_MS = 1_000;

    private NaivePollingReference() {
    }

    static JobResult run(BenchEnvironment env, int count, long delayMs) throws Exception {
        byte[] key = (env.prefix("naive") + ":due").getBytes(StandardCharsets.UTF_8);
        RedisClient client = RedisClient.create(env.redisUri);
        LatencyRecorder lateness = new LatencyRecorder();
        AtomicLong lastDelivery = new AtomicLong();
        long deadline = System.currentTimeMillis() + delayMs + 600_000;
        try (StatefulRedisConnection<byte[], byte[]> producerConnection = client.connect(ByteArrayCodec.INSTANCE);
             StatefulRedisConnection<byte[], byte[]> pollerConnection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> poller = pollerConnection.sync();
            Thread pollerThread = new Thread(() -> {
                int delivered = 0;
                try {
                    while (delivered < count && System.currentTimeMillis() < deadline) {
                        long pollStart = System.currentTimeMillis();
                        List<byte[]> due = poller.zrangebyscore(key, Range.create(0, pollStart));
                        for (byte[] member : due) {
                            if (poller.zrem(key, member) == 1) {
                                long now = System.currentTimeMillis();
                                lateness.record(now - ByteBuffer.wrap(member).getLong());
                                lastDelivery.set(now);
                                delivered++;
                            }
                        }
                        Thread.sleep(Math.max(0, pollStart + POLL_INTERVAL_MS - System.currentTimeMillis()));
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "naive-poller");
            pollerThread.start();
            RedisCommands<byte[], byte[]> producer = producerConnection.sync();
            CpuMeter cpu = env.cpu();
            long start = System.currentTimeMillis();
            for (int i = 0; i < count; i++) {
                long dueAt = System.currentTimeMillis() + delayMs;
                byte[] member = new byte[12 + BenchEnvironment.PAYLOAD_BYTES];
                ByteBuffer.wrap(member).putLong(dueAt).putInt(i).put(env.payload());
                producer.zadd(key, dueAt, member);
            }
            long enqueued = System.currentTimeMillis();
            pollerThread.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (lateness.count() < count) {
                throw new IllegalStateException("naive: only " + lateness.count() + " of " + count + " delivered");
            }
            JobResult result = new JobResult("ZRANGEBYSCORE + ZREM, 1 s poll", count, delayMs,
                    count * 1000.0 / (lastDelivery.get() - start - delayMs), lateness, cpu.stop());
            System.out.printf("naive: enqueued %d in %d ms; %s, %s%n", count, enqueued - start, result.describe(), result.cpu());
            producer.del(key);
            return result;
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
