package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.ArrayList;
import java.util.List;

/**
 * Precision: messages published at a steady rate with a 1 s delay, so that they also fall due at that
 * rate; lateness = arrival on the target (the load generator's consumer's receive time) minus x-delay-due-at.
 * The first seconds of each step are a warm-up and not recorded, and the first step at the target rate comes after
 * unrecorded steps that let the JIT compiler settle ({@link JitWarmup}). Then steps up the rate (through the search
 * rates given, if any) to find the highest one at which p99 stays within 25 ms (and every message arrives).
 */
final class PrecisionScenario {

    static final long DELAY_MS = 1_000;

    record Step(int rate, int sent, long arrived, LatencyRecorder lateness, LatencyRecorder dueToSent, LatencyRecorder sentToReceived,
                String cpu, double commitsPerSecond) {

        boolean complete() {
            return arrived >= sent;
        }

        boolean p99Within(long ms) {
            return complete() && lateness.count() > 0 && lateness.percentile(99) <= ms;
        }

        String describe() {
            return String.format("%d msg/s: %s, early %d%s; due->sent %s; sent->received %s; %.0f inbound offset commits/s", rate,
                    lateness.summary("ms"), lateness.countBelow(0), complete() ? "" : ", only " + arrived + " of " + sent + " arrived",
                    dueToSent.summary("ms"), sentToReceived.summary("ms"), commitsPerSecond);
        }
    }

    /** {@code warmup}: how the measured step was warmed up, and the JIT's work during it ({@link JitWarmup}). */
    record Result(Step target, List<Step> search, int highestRateWithinP99, String warmup) {
    }

    private PrecisionScenario() {
    }

    static Result measure(BenchEnvironment env, String name, int targetRate, int[] searchRates, long stepMs, long warmupMs) throws Exception {
        String in = env.topic(name, "inbound");
        env.createTopics(6, in);
        List<BridgeInstance> bridges = env.startBridges(env.bridgeSettings(name, in), 1);
        try {
            // unrecorded steps first: steady small batches run code paths the capacity warm-up does not, and a measured
            // step otherwise pays for their JIT compilation (about 1.5x the CPU, 2x the lateness)
            int[] warmups = {0};
            JitWarmup.Settled warm = JitWarmup.untilSettled("precision", stepMs, env.jvmsAlongside(),
                    () -> step(env, name + "-warmup-" + ++warmups[0], in, targetRate, stepMs, warmupMs).describe());
            long compiledBefore = JitWarmup.compileMillis();
            Step target = step(env, name, in, targetRate, stepMs, warmupMs);
            String warmup = warm.describe() + ", " + (JitWarmup.compileMillis() - compiledBefore) + " ms in the measured one";
            List<Step> search = new ArrayList<>();
            int highest = target.p99Within(25) ? targetRate : 0;
            int lastFailed = 0;
            for (int rate : searchRates) {
                if (rate <= targetRate) {
                    continue;
                }
                Step step = step(env, name, in, rate, stepMs, warmupMs);
                search.add(step);
                if (!step.p99Within(25)) {
                    lastFailed = rate;
                    break;
                }
                highest = rate;
            }
            if (lastFailed > 0 && highest > 0 && lastFailed - highest > 2_000) {
                int middle = (highest + lastFailed) / 2 / 500 * 500;
                Step step = step(env, name, in, middle, stepMs, warmupMs);
                search.add(step);
                if (step.p99Within(25)) {
                    highest = middle;
                }
            }
            return new Result(target, search, highest, warmup);
        } finally {
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
        }
    }

    private static Step step(BenchEnvironment env, String name, String in, int rate, long stepMs, long warmupMs) throws Exception {
        String target = env.topic(name, "target-" + rate);
        env.createTopics(1, target);
        long recordFrom = System.currentTimeMillis() + warmupMs + DELAY_MS;
        CpuMeter cpu = env.cpu();
        double commitsBefore = KafkaClientMetrics.coordinatorSum("commit-total");
        long started = System.nanoTime();
        LoadGenerator.Arrivals arrivals = env.load().paced(in, rate, stepMs, DELAY_MS, target, recordFrom);
        double commitsPerSecond = (KafkaClientMetrics.coordinatorSum("commit-total") - commitsBefore) / ((System.nanoTime() - started) / 1e9);
        Step step = new Step(rate, arrivals.sent(), arrivals.arrived(), arrivals.lateness(), arrivals.dueToSent(), arrivals.sentToReceived(),
                cpu.stop(), commitsPerSecond);
        System.out.println("precision " + step.describe() + ", " + step.cpu());
        return step;
    }
}
