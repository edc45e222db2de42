package io.github.redisdelaybridge.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.AmqpMessageMapping;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * RabbitMQ delivery capacity, on this machine's RabbitMQ: N stored messages for a RabbitMQ queue fall due in the same
 * second; the rate runs from that second until the queue holds all N. The ceiling is a plain publisher of the same
 * messages (persistent, mandatory, one channel with publisher confirms, pipelined), from its first publish until the
 * last confirm. Same messages means the same bytes: the body, and the two headers the bridge adds with values of the
 * same length (the message ids the bridge run stores, a 13-digit due time). RabbitMQ's rate here falls with every byte
 * of a message: one-character header values let it publish about 25% faster than the bridge's real headers do
 * (docs/benchmark.md, "The RabbitMQ ceilings").
 */
final class RabbitMqDrainScenario {

    record Result(int count, double rate, String cpu) {
    }

    private RabbitMqDrainScenario() {
    }

    /** {@code bridgeRunName}: the name of the bridge run it is compared with, whose message ids it publishes. */
    static Result ceiling(BenchEnvironment env, String name, String bridgeRunName, int count) throws Exception {
        String queue = env.prefix(name) + ".target";
        try (Connection connection = RabbitMqBench.connections().newConnection("bench-publish-ceiling")) {
            Channel channel = connection.createChannel();
            channel.queueDeclare(queue, true, false, false, null);
            channel.confirmSelect();
            String dueAt = Long.toString(System.currentTimeMillis());
            CpuMeter cpu = env.cpu();
            long start = System.currentTimeMillis();
            for (int i = 0; i < count; i++) {
                channel.basicPublish("", queue, true, asDelivered(messageId(bridgeRunName, i), dueAt), env.payload());
            }
            channel.waitForConfirmsOrDie(120_000);
            long end = System.currentTimeMillis();
            String cpuUse = cpu.stop();
            channel.queueDelete(queue);
            channel.close();
            double rate = count * 1000.0 / Math.max(1, end - start);
            System.out.printf("%s: %,.0f msg/s published and confirmed (one channel; %s)%n", name, rate, cpuUse);
            return new Result(count, rate, cpuUse);
        }
    }

    static Result bridge(BenchEnvironment env, String name, int count) throws Exception {
        String queue = env.prefix(name) + ".target";
        BridgeRedis redis = env.standaloneRedis();
        Map<String, String> settings = RabbitMqBench.bridgeSettings(env, name, env.prefix(name) + ".inbound");
        try (Connection connection = RabbitMqBench.connections().newConnection("bench-drain-check")) {
            Channel channel = connection.createChannel();
            channel.queueDeclare(queue, true, false, false, null);
            List<BridgeInstance> bridges = env.startBridges(settings, 1);
            try (BenchEnvironment.StoreHandle store = redis.store(env.prefix(name))) {
                StoreLoader.loadTo(store.store(), i -> messageId(name, i), 0, count, new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS),
                        "rabbitmq:/" + queue, env.payload());
                long dueAt = (System.currentTimeMillis() / 1000 + 2) * 1000;
                redis.retime(store.keys(), dueAt);
                Thread.sleep(Math.max(0, dueAt - System.currentTimeMillis()));
                CpuMeter cpu = env.cpu();
                long last = BenchEnvironment.awaitCount(() -> messages(channel, queue), count, 90_000, 10);
                String cpuUse = cpu.stop();
                if (last < 0) {
                    throw new IllegalStateException(name + ": only " + messages(channel, queue) + " of " + count + " arrived");
                }
                double rate = count * 1000.0 / Math.max(1, last - dueAt);
                System.out.printf("%s: %,d messages delivered to a RabbitMQ queue in %d ms: %,.0f msg/s (%s)%n", name, count, last - dueAt,
                        rate, cpuUse);
                return new Result(count, rate, cpuUse);
            } finally {
                BenchEnvironment.stopBridges(bridges);
                redis.deleteKeys(env.prefix(name));
                channel.queueDelete(queue);
                channel.queueDelete(env.prefix(name) + ".inbound");
                channel.queueDelete(env.prefix(name) + ".dlq");
            }
        }
    }

    private static String messageId(String runName, int i) {
        return runName + "-" + i;
    }

    /** The properties the bridge gives such a message on delivery: its id and due time as headers, persistent. */
    private static AMQP.BasicProperties asDelivered(String messageId, String dueAt) {
        return AmqpMessageMapping.properties(List.of(MessageHeader.text(HeaderNames.MESSAGE_ID, messageId),
                MessageHeader.text(HeaderNames.DUE_AT, dueAt)), Map.of(), null);
    }

    private static long messages(Channel channel, String queue) {
        try {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
