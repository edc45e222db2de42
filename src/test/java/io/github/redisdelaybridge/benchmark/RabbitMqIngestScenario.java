package io.github.redisdelaybridge.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * RabbitMQ ingest capacity, on this machine's RabbitMQ: N 100-byte messages (60 s delay, a Kafka target) are put in an
 * inbound queue first, then consumed. The bridge's rate runs from its first stored message until Redis holds all N; the
 * ceiling is a plain consumer of the same queue (same number of channels and prefetch, one ack per delivery, nothing
 * stored), from its first delivery until it has acked all N.
 */
final class RabbitMqIngestScenario {

    record Result(int count, double rate, String cpu) {
    }

    private RabbitMqIngestScenario() {
    }

    /** A plain consume-and-ack pass-through with the bridge's default channels and prefetch. */
    static Result ceiling(BenchEnvironment env, String name, int count, int channels, int prefetch) throws Exception {
        String queue = env.prefix(name) + ".inbound";
        try (Connection connection = RabbitMqBench.connections().newConnection("bench-ceiling")) {
            preload(connection, queue, count, env.payload(), env.topic(name, "target"));
            AtomicInteger acked = new AtomicInteger();
            AtomicLong first = new AtomicLong();
            CountDownLatch done = new CountDownLatch(1);
            CpuMeter cpu = env.cpu();
            List<Channel> consumers = new ArrayList<>();
            for (int i = 0; i < channels; i++) {
                Channel channel = connection.createChannel();
                channel.basicQos(prefetch);
                channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                    @Override
                    public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body)
                            throws java.io.IOException {
                        first.compareAndSet(0, System.currentTimeMillis());
                        getChannel().basicAck(envelope.getDeliveryTag(), false);
                        if (acked.incrementAndGet() == count) {
                            done.countDown();
                        }
                    }
                });
                consumers.add(channel);
            }
            if (!done.await(120, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + ": only " + acked.get() + " of " + count + " consumed");
            }
            long end = System.currentTimeMillis();
            String cpuUse = cpu.stop();
            for (Channel channel : consumers) {
                channel.close();
            }
            deleteQueue(connection, queue);
            double rate = count * 1000.0 / Math.max(1, end - first.get());
            System.out.printf("%s: %d channel(s), prefetch %d: %,.0f msg/s consumed and acked (%s)%n", name, channels, prefetch, rate, cpuUse);
            return new Result(count, rate, cpuUse);
        }
    }

    /** The bridge consuming the same kind of preloaded queue, storing every message in Redis before its ack. */
    static Result bridge(BenchEnvironment env, String name, int count) throws Exception {
        String queue = env.prefix(name) + ".inbound";
        BridgeRedis redis = env.standaloneRedis();
        Keys keys = redis.keys(env.prefix(name));
        Map<String, String> settings = RabbitMqBench.bridgeSettings(env, name, queue);
        env.createTopics(1, env.topic(name, "target"));
        try (Connection connection = RabbitMqBench.connections().newConnection("bench-load")) {
            preload(connection, queue, count, env.payload(), env.topic(name, "target"));
            CpuMeter cpu = env.cpu();
            List<BridgeInstance> bridges = env.startBridges(settings, 1);
            try {
                long first = BenchEnvironment.awaitMillis(() -> redis.pending(keys) > 0, 120_000, 1);
                long stored = BenchEnvironment.awaitCount(() -> redis.pending(keys), count, 60_000, 5);
                String cpuUse = cpu.stop();
                if (first < 0 || stored < 0) {
                    throw new IllegalStateException(name + ": only " + redis.pending(keys) + " of " + count + " stored");
                }
                long left = readyMessages(connection, queue);
                double rate = count * 1000.0 / Math.max(1, stored - first);
                System.out.printf("%s: %,.0f msg/s stored (%,d left ready in the queue; %s)%n", name, rate, left, cpuUse);
                return new Result(count, rate, cpuUse);
            } finally {
                BenchEnvironment.stopBridges(bridges);
                redis.deleteKeys(env.prefix(name));
                deleteQueue(connection, queue);
                deleteQueue(connection, env.prefix(name) + ".dlq");
            }
        }
    }


    /** Fills the queue with {@code count} persistent messages, published with confirms. */
    private static void preload(Connection connection, String queue, int count, byte[] payload, String targetTopic) throws Exception {
        Channel channel = connection.createChannel();
        channel.queueDeclare(queue, true, false, false, null);
        channel.queuePurge(queue);
        channel.confirmSelect();
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().deliveryMode(2)
                .headers(Map.of("x-delay", 60_000, "x-target", "kafka:" + targetTopic)).build();
        for (int i = 0; i < count; i++) {
            channel.basicPublish("", queue, properties, payload);
            if (i % 5_000 == 4_999) {
                channel.waitForConfirmsOrDie(60_000);
            }
        }
        channel.waitForConfirmsOrDie(60_000);
        channel.close();
    }

    private static long readyMessages(Connection connection, String queue) throws Exception {
        Channel channel = connection.createChannel();
        try {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } finally {
            channel.close();
        }
    }

    private static void deleteQueue(Connection connection, String queue) {
        try {
            Channel channel = connection.createChannel();
            channel.queueDelete(queue);
            channel.close();
        } catch (Exception e) {
            System.err.println("could not delete queue " + queue + ": " + e);
        }
    }
}
