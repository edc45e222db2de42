package io.github.redisdelaybridge.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.testkit.BridgeInstance;
import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.LogCapture;
import io.github.redisdelaybridge.testkit.RedisServerProcess;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bridge checks the Redis it is pointed at: a Redis that could evict pending messages, or one that cannot keep
 * a promised fsync, stops the start with one clear line and a non-zero exit; where the operator allowed it, the
 * bridge runs and warns at every check.
 */
class RedisRequirementsStartTest {

    private static final String NAME = "redis-requirements";

    @Test
    void evictingRedisStopsTheStartWithOneLineAndExitCodeTwo() throws Exception {
        try (RedisServerProcess redis = new RedisServerProcess(NAME + "-lru", false).with("--maxmemory-policy", "allkeys-lru").start()) {
            Map<String, String> settings = BridgeInstance.settings(NAME + "-lru", redis.uri());
            settings.remove("camel.server.port");
            settings.remove("camel.management.port");
            assertThatThrownBy(() -> BridgeProcess.start(NAME + "-lru", settings))
                    .hasMessageContaining("exited with 2")
                    .hasMessageContaining("cannot run on this Redis: Redis " + redis.uri() + " (7.0")
                    .hasMessageContaining("maxmemory-policy allkeys-lru, which may evict pending messages: set maxmemory-policy noeviction,"
                            + " or bridge.redis.allow-eviction=true");
        }
    }

    @Test
    void allowedEvictionStartsAndWarnsAtEveryCheck() throws Exception {
        try (RedisServerProcess redis = new RedisServerProcess(NAME + "-allowed", false).with("--maxmemory-policy", "volatile-lru").start();
             LogCapture logs = new LogCapture()) {
            Map<String, String> settings = BridgeInstance.settings(NAME + "-allowed", redis.uri());
            settings.put("bridge.redis.allow-eviction", "true");
            settings.put("bridge.redis.check-interval-ms", "1000");
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                long deadline = System.currentTimeMillis() + 30_000;
                while (logs.messagesContaining("maxmemory-policy volatile-lru").size() < 3 && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                assertThat(logs.messagesContaining("maxmemory-policy volatile-lru")).hasSizeGreaterThanOrEqualTo(3)
                        .allSatisfy(line -> assertThat(line).contains("allowed by bridge.redis.allow-eviction=true"));
                assertThat(bridge.context().getStatus().isStarted()).isTrue();
            }
        }
    }

    @Test
    void promisedFsyncIsRefusedByARedisWithoutAppendOnlyFileAndKeptByOneWithAppendfsyncAlways() throws Exception {
        try (RedisServerProcess memoryOnly = new RedisServerProcess(NAME + "-memory", false).start();
             RedisServerProcess durable = new RedisServerProcess(NAME + "-durable", true).start()) {
            Map<String, String> settings = BridgeInstance.settings(NAME + "-fsync", memoryOnly.uri());
            settings.put("bridge.redis.wait-aof-local", "true");
            assertThatThrownBy(() -> BridgeInstance.start(settings)).hasStackTraceContaining("appendonly no")
                    .hasStackTraceContaining("bridge.redis.wait-aof-local=true");

            settings.put("bridge.redis.uri", durable.uri());
            try (BridgeInstance bridge = BridgeInstance.start(settings)) {
                assertThat(bridge.context().getStatus().isStarted()).isTrue();
            }
        }
    }
}
