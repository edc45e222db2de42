package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Thundering herd: N messages due in the same millisecond T, and a probe set of 100 messages due at
 * T + 1 s on a target of their own. Measures the herd's drain rate, every command slower than 10 ms in
 * SLOWLOG (slowlog-log-slower-than set to 10000 us for the run), BUSY replies and the longest stall seen
 * by a PING every millisecond, and the probes' lateness.
 */
final class ThunderingHerdScenario {

    static final int PROBES = 100;

    record Result(int count, double drainRate, int slowCommands, long slowestMicros, String slowest, long busyReplies,
                  long longestPingMicros, LatencyRecorder probeLateness, long probesArrived, String cpu) {
    }

    private ThunderingHerdScenario() {
    }

    /** The bridge script a SHA1 belongs to ("claim.lua"), or the argument itself. */
    static String scriptName(String argument) {
        for (String name : List.of("schedule", "claim", "acknowledge", "reschedule", "reapExpiredLeases")) {
            String described = io.github.redisdelaybridge.store.script.LuaScript.load(name).toString(); // LuaScript[name sha1]
            if (described.contains(argument)) {
                return name + ".lua";
            }
        }
        return argument;
    }

    /** {@code name}: of the run's topics and key prefix, new for every run. */
    static Result measure(BenchEnvironment env, String name, int count) throws Exception {
        String in = env.topic(name, "inbound");
        String target = env.topic(name, "target");
        String probeTarget = env.topic(name, "probe");
        env.createTopics(6, in, target);
        env.createTopics(1, probeTarget);
        RedisCommands<String, String> redis = env.redis();
        String slowlogBefore = redis.configGet("slowlog-log-slower-than").get("slowlog-log-slower-than");
        String slowlogLenBefore = redis.configGet("slowlog-max-len").get("slowlog-max-len");
        List<BridgeInstance> bridges = env.startBridges(env.bridgeSettings(name, in), 1);
        RedisClient pingClient = RedisClient.create(env.redisUri);
        AtomicBoolean pinging = new AtomicBoolean(true);
        AtomicLong busy = new AtomicLong();
        AtomicLong longestPing = new AtomicLong();
        Thread pinger = null;
        try (BenchEnvironment.StoreHandle store = env.store(env.prefix(name));
             StatefulRedisConnection<String, String> pingConnection = pingClient.connect()) {
            DueTime far = new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS);
            StoreLoader.load(store.store(), in + "-0-", 0, count, far, target, env.payload());
            StoreLoader.load(store.store(), "probe-", 0, PROBES, far, probeTarget, env.payload());
            long dueAt = (System.currentTimeMillis() / 1000 + 2) * 1000;
            StoreLoader.retime(redis, store.keys(), dueAt, "probe-", dueAt + 1_000);
            redis.configSet("slowlog-log-slower-than", "10000");
            redis.configSet("slowlog-max-len", "1024");
            redis.slowlogReset();
            RedisCommands<String, String> ping = pingConnection.sync();
            pinger = new Thread(() -> {
                while (pinging.get()) {
                    long t0 = System.nanoTime();
                    try {
                        ping.ping();
                    } catch (RuntimeException e) {
                        if (String.valueOf(e.getMessage()).contains("BUSY")) {
                            busy.incrementAndGet();
                        }
                    }
                    longestPing.accumulateAndGet((System.nanoTime() - t0) / 1_000, Math::max);
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                }
            }, "herd-pinger");
            try (ArrivalRecorder probes = new ArrivalRecorder(env.bootstrap, probeTarget, 1, d -> true)) {
                Thread.sleep(Math.max(0, dueAt - System.currentTimeMillis() - 200));
                pinger.start();
                Thread.sleep(Math.max(0, dueAt - System.currentTimeMillis()));
                CpuMeter cpu = env.cpu();
                long last = BenchEnvironment.awaitMillis(() -> env.recordsIn(target) >= count, 300_000, 10);
                String cpuUse = cpu.stop();
                probes.await(PROBES, 60_000);
                pinging.set(false);
                pinger.join();
                if (last < 0) {
                    throw new IllegalStateException("herd: only " + env.recordsIn(target) + " of " + count + " arrived");
                }
                List<Object> slowlog = redis.slowlogGet(1024);
                long slowest = 0;
                String slowestCommand = "-";
                Map<String, Integer> byCommand = new TreeMap<>();
                for (Object entry : slowlog) {
                    List<?> fields = (List<?>) entry;
                    long micros = ((Number) fields.get(2)).longValue();
                    List<?> args = (List<?>) fields.get(3);
                    String command = args.isEmpty() ? "?" : String.valueOf(args.get(0)) + (args.size() > 1 ? " " + scriptName(String.valueOf(args.get(1))) : "");
                    if (command.length() > 60) {
                        command = command.substring(0, 60);
                    }
                    byCommand.merge(command, 1, Integer::sum);
                    if (micros > slowest) {
                        slowest = micros;
                        slowestCommand = command;
                    }
                }
                if (!byCommand.isEmpty()) {
                    System.out.println("herd SLOWLOG entries by command: " + byCommand);
                }
                Result result = new Result(count, count * 1000.0 / (last - dueAt), slowlog.size(), slowest, slowestCommand, busy.get(),
                        longestPing.get(), probes.lateness, probes.arrivals(), cpuUse);
                System.out.printf("herd: %d drained in %d ms (%.0f msg/s); %d slow commands, slowest %d us (%s); BUSY %d; "
                                + "longest PING %d us; probes %s; %s%n", count, last - dueAt, result.drainRate(), result.slowCommands(),
                        slowest, slowestCommand, busy.get(), longestPing.get(), probes.lateness.summary("ms"), cpuUse);
                return result;
            }
        } finally {
            pinging.set(false);
            redis.configSet("slowlog-log-slower-than", slowlogBefore);
            redis.configSet("slowlog-max-len", slowlogLenBefore);
            BenchEnvironment.stopBridges(bridges);
            env.deleteKeys(env.prefix(name));
            pingClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }
}
