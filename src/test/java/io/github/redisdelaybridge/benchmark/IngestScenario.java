package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * Ingest capacity: N 100-byte messages published to the inbound topic with a one-minute delay, as fast
 * as the producer goes (the environment's load generator); the rate runs from the first publish until Redis
 * holds all N and the bridge's consumer group has committed all N offsets upstream.
 */
final class IngestScenario {

    /** {@code stored}, {@code committed}: of the N (warm-up messages not counted); rates are NaN unless all N made it. */
    record Result(int count, int instances, double storedRate, double committedRate, String cpu, double commits, double commitLatencyMs,
                  long stored, long committed) {

        boolean complete() {
            return stored >= count && committed >= count;
        }

        /** The committed rate, or how many fell short. */
        String rateOrShortfall() {
            return complete() ? String.format("%,.0f", committedRate)
                    : String.format("only %,d of %,d stored, %,d committed", stored, count, committed);
        }
    }

    private static final int PARTITIONS = 6;
    private static final int WARMUP_MESSAGES = PARTITIONS;

    private IngestScenario() {
    }

    /** On the benchmark's one Redis; fails unless every message was stored and committed. */
    static Result measure(BenchEnvironment env, String name, int count, int instances) throws Exception {
        Result result = measure(env, env.standaloneRedis(), name, count, instances);
        if (!result.complete()) {
            throw new IllegalStateException(name + ": stored " + result.stored() + ", committed " + result.committed() + " of " + count);
        }
        return result;
    }

    static Result measure(BenchEnvironment env, BridgeRedis redis, String name, int count, int instances) throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(PARTITIONS, in, target);
        Map<String, String> settings = env.bridgeSettings(name, in);
        settings.putAll(redis.bridgeSettings());
        String group = settings.get("bridge.kafka.group-id");
        Keys keys = redis.keys(env.prefix(name));
        List<BridgeInstance> bridges = env.startBridges(settings, instances);
        try {
            // one warm-up message per partition, so every instance has joined the group and has its partitions
            for (int i = 0; i < WARMUP_MESSAGES; i++) {
                env.producer().send(new org.apache.kafka.clients.producer.ProducerRecord<byte[], byte[]>(in, i, (byte[]) null, env.payload(),
                        KafkaLoad.delayHeaders(60_000, target)));
            }
            env.producer().flush();
            if (BenchEnvironment.awaitMillis(() -> redis.pending(keys) >= WARMUP_MESSAGES, 60_000, 20) < 0) {
                throw new IllegalStateException(name + ": warm-up messages were not stored");
            }
            int members = instances * BenchEnvironment.consumersPerInstance(settings);
            if (BenchEnvironment.awaitMillis(() -> env.groupStable(group, members, PARTITIONS), 60_000, 50) < 0) {
                throw new IllegalStateException(name + ": the consumer group did not settle on " + members + " members");
            }
            double commitsBefore = KafkaClientMetrics.coordinatorSum("commit-total");
            CpuMeter cpu = redis.cpu();
            LoadGenerator.Publishing publishing = env.load().publish(in, count, 60_000, target);
            long stored = BenchEnvironment.awaitCount(() -> redis.pending(keys), count + WARMUP_MESSAGES, 60_000, 5);
            long committed = stored < 0 ? -1 : BenchEnvironment.awaitMillis(() -> env.committed(group, in) >= count + WARMUP_MESSAGES, 60_000, 5);
            String cpuUse = cpu.stop();
            LoadGenerator.Published published = publishing.await();
            long start = published.startedMs();
            long storedCount = redis.pending(keys) - WARMUP_MESSAGES;
            long committedCount = env.committed(group, in) - WARMUP_MESSAGES;
            double commits = KafkaClientMetrics.coordinatorSum("commit-total") - commitsBefore;
            boolean complete = stored >= 0 && committed >= 0;
            Result result = new Result(count, instances, complete ? count * 1000.0 / (stored - start) : Double.NaN,
                    complete ? count * 1000.0 / (committed - start) : Double.NaN, cpuUse, commits,
                    KafkaClientMetrics.coordinatorMax("commit-latency-avg"), storedCount, committedCount);
            if (!complete) {
                System.out.printf("%s: %d instance(s): %s (%s)%n", name, instances, result.rateOrShortfall(), cpuUse);
                return result;
            }
            System.out.printf("%s: %d instance(s), published in %d ms, stored after %d ms, committed after %d ms: %.0f msg/s, %s; "
                            + "%.0f offset commits (one per %.0f messages), %.1f ms each on average%n",
                    name, instances, published.ackedMs() - start, stored - start, committed - start, result.committedRate(), cpuUse,
                    commits, count / Math.max(1, commits), result.commitLatencyMs());
            return result;
        } finally {
            BenchEnvironment.stopBridges(bridges);
            redis.deleteKeys(env.prefix(name));
        }
    }
}
