package io.github.redisdelaybridge.benchmark;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * Precision of RabbitMQ-inbound messages: published to the bridge's inbound queue at a steady rate with a 1 s delay,
 * delivered to a Kafka target (the same arrival recorder as the Kafka precision scenario). Lateness is given twice:
 * against the due time the bridge computed when it stored the message ({@code x-delay-due-at}: the bridge's part, and
 * never early), and against the due time the producer meant (its publish time plus the delay), which also counts the
 * time the message waited in the queue and in the bridge's batch before it was stored.
 */
final class RabbitMqPrecisionScenario {

    static final long DELAY_MS = 1_000;

    /** {@code warmup}: how the step was warmed up and the JIT's work during it ({@link JitWarmup}); empty for a warm-up step. */
    record Step(int rate, int sent, long arrived, LatencyRecorder lateness, LatencyRecorder dueToSent, LatencyRecorder sentToReceived,
                LatencyRecorder fromIntendedDue, String cpu, String warmup) {

        Step warmedUp(String how) {
            return new Step(rate, sent, arrived, lateness, dueToSent, sentToReceived, fromIntendedDue, cpu, how);
        }

        /** Where the lateness arose, as in the Kafka precision scenario: the bridge's part and Kafka's. */
        String split() {
            return String.format("of which due->sent (bridge) p50 %d / p99 %d, sent->received (Kafka) p50 %d / p99 %d", dueToSent.percentile(50),
                    dueToSent.percentile(99), sentToReceived.percentile(50), sentToReceived.percentile(99));
        }

        boolean complete() {
            return arrived >= sent;
        }

        String describe() {
            return String.format("%,d msg/s: from the bridge's due time %s, early %d; %s; from publish + delay %s, early %d%s", rate,
                    lateness.summary("ms"), lateness.countBelow(0), split(), fromIntendedDue.summary("ms"), fromIntendedDue.countBelow(0),
                    complete() ? "" : ", only " + arrived + " of " + sent + " arrived");
        }
    }

    private RabbitMqPrecisionScenario() {
    }

    static Step measure(BenchEnvironment env, int rate, long stepMs, long warmupMs) throws Exception {
        String name = "rmq-precision";
        String queue = env.prefix(name) + ".inbound";
        Map<String, String> settings = RabbitMqBench.bridgeSettings(env, name, queue);
        ConnectionFactory factory = RabbitMqBench.connections();
        List<BridgeInstance> bridges = env.startBridges(settings, 1);
        try (Connection connection = factory.newConnection("bench-precision-load")) {
            int[] warmups = {0};
            JitWarmup.Settled warm = JitWarmup.untilSettled("RabbitMQ precision", stepMs,
                    () -> step(env, connection, name + "-warmup-" + ++warmups[0], queue, rate, stepMs, warmupMs).describe());
            long compiledBefore = JitWarmup.compileMillis();
            Step step = step(env, connection, name, queue, rate, stepMs, warmupMs);
            step = step.warmedUp(warm.describe() + ", " + (JitWarmup.compileMillis() - compiledBefore) + " ms in the measured one");
            System.out.println("RabbitMQ precision " + step.describe() + ", " + step.cpu() + "; " + step.warmup());
            return step;
        } finally {
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
            try (Connection connection = factory.newConnection("bench-cleanup"); Channel channel = connection.createChannel()) {
                channel.queueDelete(queue);
                channel.queueDelete(env.prefix(name) + ".dlq");
            }
        }
    }

    private static Step step(BenchEnvironment env, Connection connection, String name, String queue, int rate, long stepMs, long warmupMs)
            throws Exception {
        String target = env.topic(name, "target-" + rate);
        env.createTopics(1, target);
        long recordFrom = System.currentTimeMillis() + warmupMs + DELAY_MS;
        try (ArrivalRecorder arrivals = new ArrivalRecorder(env.bootstrap, target, 1, dueAt -> dueAt >= recordFrom);
             Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            CpuMeter cpu = env.cpu();
            int total = (int) (rate * stepMs / 1000);
            KafkaLoad.paced(rate, total, i -> channel.basicPublish("", queue, new AMQP.BasicProperties.Builder().deliveryMode(2)
                    .headers(Map.of("x-delay", (int) DELAY_MS, "x-target", "kafka:" + target,
                            ArrivalRecorder.INTENDED_DUE_AT, Long.toString(System.currentTimeMillis() + DELAY_MS))).build(), env.payload()));
            channel.waitForConfirmsOrDie(60_000);
            arrivals.await(total, DELAY_MS + 60_000);
            return new Step(rate, total, arrivals.arrivals(), arrivals.lateness, arrivals.dueToSent, arrivals.sentToReceived, arrivals.fromIntendedDue,
                    cpu.stop(), "");
        }
    }
}
