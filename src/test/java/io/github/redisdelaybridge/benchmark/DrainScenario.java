package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * Drain capacity: N stored messages that all fall due at the start of the same second (stored through
 * the bridge's own schedule script, then re-timed); the rate runs from that second until the last one
 * is on the target topic. Afterwards the target is read back to check each message arrived exactly once.
 */
final class DrainScenario {

    /** {@code rate} is NaN unless every message arrived. */
    record Result(int count, int instances, double rate, String cpu, Delivery delivery) {

        /** The rate (with duplicates, if any), or how many fell short. */
        String rateOrShortfall() {
            if (!delivery.complete()) {
                return delivery.shortfall();
            }
            return String.format("%,.0f", rate) + (delivery.exactlyOnce() ? "" : " (" + delivery.shortfall() + ")");
        }
    }

    /**
     * How long the drain may make no progress before the missing messages are reported: longer than a
     * lease (60 s) plus a reaper pass, so a claim lost in the middle still counts as arrived, if late.
     */
    private static final long STALL_MS = 90_000;

    private DrainScenario() {
    }

    /** On the benchmark's one Redis; fails unless every message arrived. */
    static Result measure(BenchEnvironment env, String name, int count, int instances) throws Exception {
        Result result = measure(env, env.standaloneRedis(), name, count, instances);
        if (!result.delivery().complete()) {
            throw new IllegalStateException(name + ": " + result.delivery().shortfall());
        }
        return result;
    }

    static Result measure(BenchEnvironment env, BridgeRedis redis, String name, int count, int instances) throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(6, in, target);
        Map<String, String> settings = env.bridgeSettings(name, in);
        settings.putAll(redis.bridgeSettings());
        try {
            long last;
            String cpuUse;
            List<BridgeInstance> bridges = env.startBridges(settings, instances);
            try (BenchEnvironment.StoreHandle store = redis.store(env.prefix(name))) {
                StoreLoader.load(store.store(), in + "-0-", 0, count,
                        new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS), target, env.payload());
                long dueAt = (System.currentTimeMillis() / 1000 + 2) * 1000;
                redis.retime(store.keys(), dueAt);
                Thread.sleep(Math.max(0, dueAt - System.currentTimeMillis()));
                CpuMeter cpu = redis.cpu();
                long lastArrival = BenchEnvironment.awaitCount(() -> env.recordsIn(target), count, STALL_MS, 10);
                cpuUse = cpu.stop();
                last = lastArrival < 0 ? -1 : lastArrival - dueAt;
            } finally {
                BenchEnvironment.stopBridges(bridges);
            }
            // counted once the bridges have stopped, so a late duplicate is on the topic too
            Delivery delivery = DeliveryCounter.count(env.bootstrap, target, count);
            Result result = new Result(count, instances, last >= 0 && delivery.complete() ? count * 1000.0 / last : Double.NaN, cpuUse, delivery);
            System.out.printf("%s: %d instance(s), %d messages drained in %d ms: %s msg/s, %s%n",
                    name, instances, count, last, result.rateOrShortfall(), cpuUse);
            return result;
        } finally {
            redis.deleteKeys(env.prefix(name));
        }
    }
}
