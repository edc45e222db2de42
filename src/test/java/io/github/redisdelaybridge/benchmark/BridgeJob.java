package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;

/** The bridge on the peers' job: publish N to Kafka with x-delay D, read them on the target topic. */
final class BridgeJob {

    private BridgeJob() {
    }

    static JobResult run(BenchEnvironment env, int count, long delayMs) throws Exception {
        String name = "job";
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(6, in, target);
        List<BridgeInstance> bridges = env.startBridges(env.bridgeSettings(name, in), 1);
        try (ArrivalRecorder arrivals = new ArrivalRecorder(env.bootstrap, target, 6, dueAt -> true)) {
            Thread.sleep(2_000); // let the bridge's consumer join its group
            // the first send to a new topic blocks until the producer has the topic's metadata: a cost of the harness, not of the
            // job, and a large share of a job that takes about a second
            long metadataStart = System.currentTimeMillis();
            env.producer().partitionsFor(in);
            long metadataMs = System.currentTimeMillis() - metadataStart;
            CpuMeter cpu = env.cpu();
            long start = System.currentTimeMillis();
            KafkaLoad.publish(env.producer(), in, count, env.payload(), KafkaLoad.delayHeaders(delayMs, target));
            long publishMs = System.currentTimeMillis() - start;
            if (!arrivals.await(count, delayMs + 300_000)) {
                throw new IllegalStateException("bridge job: only " + arrivals.arrivals() + " of " + count + " arrived");
            }
            JobResult result = new JobResult("redis-delay-bridge (Kafka in, Kafka out)", count, delayMs,
                    count * 1000.0 / (arrivals.lastArrivalMs() - start - delayMs), arrivals.lateness, cpu.stop());
            System.out.println("bridge job: topic metadata in " + metadataMs + " ms, published in " + publishMs + " ms; " + result.describe()
                    + ", " + result.cpu());
            return result;
        } finally {
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
        }
    }
}
