package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The benchmark's one Redis (its own redis-server, or the one given with --redis) as the bridges' store. */
final class StandaloneRedis implements BridgeRedis {

    private final String uri;
    private final int slots;
    private final StatefulRedisConnection<String, String> connection;
    private final long pid;
    private final List<CpuMeter.Process> alongside;

    /**
     * {@code pid}: of the redis-server, or -1 when it is not the benchmark's own; {@code alongside}: other processes
     * of the setting (a broker, a load generator) whose CPU use is measured too.
     */
    StandaloneRedis(String uri, int slots, StatefulRedisConnection<String, String> connection, long pid, List<CpuMeter.Process> alongside) {
        this.uri = uri;
        this.slots = slots;
        this.connection = connection;
        this.pid = pid;
        this.alongside = List.copyOf(alongside);
    }

    @Override
    public Map<String, String> bridgeSettings() {
        return Map.of("bridge.redis.uri", uri, "bridge.redis.cluster", "false", "bridge.redis.slots", Integer.toString(slots));
    }

    @Override
    public int slots() {
        return slots;
    }

    @Override
    public RedisClusterCommands<String, String> sync() {
        return connection.sync();
    }

    @Override
    public RedisClusterAsyncCommands<String, String> async() {
        return connection.async();
    }

    @Override
    public RedisConnection openStoreConnection() {
        return new RedisConnection(uri, Duration.ofSeconds(30));
    }

    @Override
    public CpuMeter cpu() {
        return CpuMeter.start(alongside, pid);
    }
}
