package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.store.connection.DurabilitySettings;

/**
 * What the bridge expects of the Redis it runs on and promises on top of it: the durability barrier before each
 * upstream acknowledgement, whether eviction is tolerated, and how often the server is checked again.
 *
 * @param durability      {@code bridge.redis.wait-replicas}, {@code bridge.redis.wait-aof-local}, {@code bridge.redis.wait-timeout-ms}
 * @param allowEviction   {@code bridge.redis.allow-eviction}: start (with a warning every check) under a
 *                        {@code maxmemory-policy} other than {@code noeviction}
 * @param checkIntervalMs {@code bridge.redis.check-interval-ms}: how often the server's version and settings are checked again
 */
public record RedisExpectations(DurabilitySettings durability, boolean allowEviction, long checkIntervalMs) {
}
