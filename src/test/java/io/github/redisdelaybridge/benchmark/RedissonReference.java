package io.github.redisdelaybridge.benchmark;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.redisson.Redisson;
import org.redisson.api.RBlockingQueue;
import org.redisson.api.RDelayedQueue;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.config.Config;

/**
 * The peer: Redisson's RDelayedQueue on the same Redis. One thread enqueues with {@code offer(value, D)}
 * (Redisson's own enqueue path, one call per message), one consumer thread takes due messages from the
 * destination queue. Each payload starts with its intended due time (client clock, taken just before
 * the offer), so lateness = take time minus that.
 */
final class RedissonReference {

    private RedissonReference() {
    }

    static JobResult run(BenchEnvironment env, int count, long delayMs) throws Exception {
        Config config = new Config();
        config.useSingleServer().setAddress(env.redisUri);
        config.setCodec(ByteArrayCodec.INSTANCE);
        RedissonClient redisson = Redisson.create(config);
        String name = env.prefix("redisson") + ":queue";
        RBlockingQueue<byte[]> queue = redisson.getBlockingQueue(name, ByteArrayCodec.INSTANCE);
        RDelayedQueue<byte[]> delayed = redisson.getDelayedQueue(queue);
        LatencyRecorder lateness = new LatencyRecorder();
        AtomicLong lastTake = new AtomicLong();
        long deadline = System.currentTimeMillis() + delayMs + 600_000;
        Thread consumer = new Thread(() -> {
            int taken = 0;
            try {
                while (taken < count && System.currentTimeMillis() < deadline) {
                    byte[] message = queue.poll(1, TimeUnit.SECONDS);
                    if (message != null) {
                        long now = System.currentTimeMillis();
                        lateness.record(now - ByteBuffer.wrap(message).getLong());
                        lastTake.set(now);
                        taken++;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "redisson-consumer");
        try {
            consumer.start();
            CpuMeter cpu = env.cpu();
            long start = System.currentTimeMillis();
            for (int i = 0; i < count; i++) {
                byte[] message = env.payload().clone();
                ByteBuffer.wrap(message).putLong(System.currentTimeMillis() + delayMs).putInt(i);
                delayed.offer(message, delayMs, TimeUnit.MILLISECONDS);
            }
            long enqueued = System.currentTimeMillis();
            consumer.join(Math.max(1, deadline - System.currentTimeMillis()));
            if (lateness.count() < count) {
                throw new IllegalStateException("Redisson: only " + lateness.count() + " of " + count + " taken");
            }
            JobResult result = new JobResult("Redisson RDelayedQueue " + "3.52.0", count, delayMs,
                    count * 1000.0 / (lastTake.get() - start - delayMs), lateness, cpu.stop());
            System.out.printf("redisson: enqueued %d in %d ms (%.0f/s); %s, %s%n", count, enqueued - start,
                    count * 1000.0 / Math.max(1, enqueued - start), result.describe(), result.cpu());
            return result;
        } finally {
            consumer.interrupt();
            delayed.destroy();
            queue.delete();
            redisson.shutdown();
        }
    }
}
