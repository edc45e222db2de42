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
            // the rate counts from the first send, which waits for the new topic's metadata: fetched here, outside the job. The
            // line below says how long that and the publishing took, since the job takes about a second and one slow step can
            // halve its rate (docs/benchmark.md, "Reading the results")
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
