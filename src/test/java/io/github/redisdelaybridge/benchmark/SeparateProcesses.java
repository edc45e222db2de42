package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.ChildKafka;
import io.github.redisdelaybridge.testkit.ChildProcess;
import java.time.Duration;
import java.util.List;

/**
 * The setting of the processes scenario: the Kafka broker in a JVM of its own ({@link ChildKafka}, with the JVM
 * options Kafka's start script gives a broker), the load generator in another ({@link LoadGeneratorMain}), the
 * bridge in the benchmark's JVM as in every scenario, on the benchmark's Redis. Its {@link #environment()} is the
 * benchmark's pointed at that broker and that load generator, so the in-JVM scenarios' code measures here unchanged.
 */
final class SeparateProcesses implements AutoCloseable {

    /**
     * kafka-server-start.sh's heap (KAFKA_HEAP_OPTS) and kafka-run-class.sh's collector settings
     * (KAFKA_JVM_PERFORMANCE_OPTS): a broker as its distribution runs it, with G1's default of a GC thread per core.
     */
    static final List<String> KAFKA_JVM = List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
            "-XX:InitiatingHeapOccupancyPercent=35", "-XX:+ExplicitGCInvokesConcurrent", "-XX:MaxInlineLevel=15");

    private final ChildProcess kafka;
    private final LoadGeneratorProcess load;
    private final BenchEnvironment environment;
    /** Kills both children if the benchmark is stopped (Ctrl-C) meanwhile: a broker would otherwise run on. */
    private final Thread onExit = new Thread(this::stopChildren, "benchmark-children-stop");

    private SeparateProcesses(ChildProcess kafka, LoadGeneratorProcess load, BenchEnvironment environment) {
        this.kafka = kafka;
        this.load = load;
        this.environment = environment;
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** Starts the broker and the load generator (logs under target/fault-tests) and an environment on them and {@code sameRedis}'s Redis. */
    static SeparateProcesses start(BenchEnvironment sameRedis) throws Exception {
        ChildProcess kafka = ChildKafka.start("benchmark-kafka", KAFKA_JVM);
        LoadGeneratorProcess load = null;
        try {
            String bootstrap = ChildKafka.bootstrapOf(kafka);
            load = LoadGeneratorProcess.start("benchmark-load", bootstrap);
            List<CpuMeter.Process> alongside = List.of(new CpuMeter.Process("kafka", kafka.pid()), new CpuMeter.Process("load", load.pid()));
            return new SeparateProcesses(kafka, load, new BenchEnvironment(sameRedis, bootstrap, load, alongside));
        } catch (Exception | Error e) {
            if (load != null) {
                load.close();
            }
            kafka.close();
            throw e;
        }
    }

    BenchEnvironment environment() {
        return environment;
    }

    @Override
    public void close() {
        environment.close();
        stopChildren();
        try {
            Runtime.getRuntime().removeShutdownHook(onExit);
        } catch (IllegalStateException exiting) {
            // the hook is running already
        }
    }

    private void stopChildren() {
        try {
            load.close();
            kafka.stop(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
