package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * Ingest capacity: N 100-byte messages published to the inbound topic with a one-minute delay, as fast
 * as the producer goes; the rate runs from the first publish until Redis holds all N and the bridge's
 * consumer group has committed all N offsets upstream.
 */
final class IngestScenario {

    record Result(int count, int instances, double storedRate, double committedRate, String cpu, double commits, double commitLatencyMs) {
    }

    private IngestScenario() {
    }

    static Result measure(BenchEnvironment env, String name, int count, int instances) throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(6, in, target);
        Map<String, String> settings = env.bridgeSettings(name, in);
        String group = settings.get("bridge.kafka.group-id");
        Keys keys = new Keys(env.prefix(name), env.slots());
        List<BridgeInstance> bridges = env.startBridges(settings, instances);
        try {
            // one warm-up message per partition, so every instance has joined the group and has its partitions
            for (int i = 0; i < 6; i++) {
                env.producer().send(new org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]>(in, i, (byte[]) null, env.payload(),
                        KafkaLoad.delayHeaders(60_000, target)));
            }
            env.producer().flush();
            if (BenchEnvironment.awaitMillis(() -> env.pending(keys) >= 6, 60_000, 20) < 0) {
                throw new IllegalStateException(name + ": warm-up messages were not stored");
            }
            if (BenchEnvironment.awaitMillis(() -> env.groupStable(group, instances), 60_000, 50) < 0) {
                throw new IllegalStateException(name + ": the consumer group did not settle on " + instances + " members");
            }
            double commitsBefore = KafkaClientMetrics.coordinatorSum("commit-total");
            CpuMeter cpu = env.cpu();
            long start = System.currentTimeMillis();
            KafkaLoad.publish(env.producer(), in, count, env.payload(), KafkaLoad.delayHeaders(60_000, target));
            long published = System.currentTimeMillis();
            long stored = BenchEnvironment.awaitMillis(() -> env.pending(keys) >= count + 6, 300_000, 5);
            long committed = BenchEnvironment.awaitMillis(() -> env.committed(group, in) >= count + 6, 60_000, 5);
            String cpuUse = cpu.stop();
            if (stored < 0 || committed < 0) {
                throw new IllegalStateException(name + ": stored " + (env.pending(keys) - 6) + ", committed "
                        + (env.committed(group, in) - 6) + " of " + count);
            }
            double commits = KafkaClientMetrics.coordinatorSum("commit-total") - commitsBefore;
            Result result = new Result(count, instances, count * 1000.0 / (stored - start), count * 1000.0 / (committed - start), cpuUse,
                    commits, KafkaClientMetrics.coordinatorMax("commit-latency-avg"));
            System.out.printf("%s: %d instance(s), published in %d ms, stored after %d ms, committed after %d ms: %.0f msg/s, %s; "
                            + "%.0f offset commits (one per %.0f messages), %.1f ms each on average%n",
                    name, instances, published - start, stored - start, committed - start, result.committedRate(), cpuUse,
                    commits, count / Math.max(1, commits), result.commitLatencyMs());
            return result;
        } finally {
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
        }
    }
}
