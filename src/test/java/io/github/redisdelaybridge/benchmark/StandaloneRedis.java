package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.RedisConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Duration;
import java.util.Map;

/** The benchmark's one Redis (its own redis-server, or the one given with --redis) as the bridges' store. */
final class StandaloneRedis implements BridgeRedis {

    private final String uri;
    private final int slots;
    private final StatefulRedisConnection<String, String> connection;
    private final long pid;

    /** {@code pid}: of the redis-server, or -1 when it is not the benchmark's own. */
    StandaloneRedis(String uri, int slots, StatefulRedisConnection<String, String> connection, long pid) {
        this.uri = uri;
        this.slots = slots;
        this.connection = connection;
        this.pid = pid;
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
        return CpuMeter.start(pid);
    }
}
