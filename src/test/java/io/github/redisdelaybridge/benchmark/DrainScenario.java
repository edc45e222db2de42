package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.DueTime;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import java.util.List;
import java.util.Map;

/**
 * Drain capacity: N stored messages that all fall due at the start of the same second (stored through
 * the bridge's own schedule script, then re-timed); the rate runs from that second until the last one
 * is on the target topic.
 */
final class DrainScenario {

    record Result(int count, int instances, double rate, String cpu) {
    }

    private DrainScenario() {
    }

    static Result measure(BenchEnvironment env, String name, int count, int instances) throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        env.createTopics(6, in, target);
        Map<String, String> settings = env.bridgeSettings(name, in);
        List<BridgeInstance> bridges = env.startBridges(settings, instances);
        try (BenchEnvironment.StoreHandle store = env.store(env.prefix(name))) {
            StoreLoader.load(store.store(), in + "-0-", 0, count,
                    new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS), target, env.payload());
            long dueAt = (System.currentTimeMillis() / 1000 + 2) * 1000;
            StoreLoader.retime(env.redis(), store.keys(), dueAt, null, 0);
            Thread.sleep(Math.max(0, dueAt - System.currentTimeMillis()));
            CpuMeter cpu = env.cpu();
            long last = BenchEnvironment.awaitMillis(() -> env.recordsIn(target) >= count, 300_000, 10);
            String cpuUse = cpu.stop();
            if (last < 0) {
                throw new IllegalStateException(name + ": only " + env.recordsIn(target) + " of " + count + " arrived");
            }
            Result result = new Result(count, instances, count * 1000.0 / (last - dueAt), cpuUse);
            System.out.printf("%s: %d instance(s), %d messages drained in %d ms: %.0f msg/s, %s%n",
                    name, instances, count, last - dueAt, result.rate(), cpuUse);
            return result;
        } finally {
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
        }
    }
}
