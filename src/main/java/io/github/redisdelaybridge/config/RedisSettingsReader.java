package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import io.github.redisdelaybridge.store.connection.RedisSecurity;

/** Reads the Redis settings that need more than one key: how to connect securely, what to expect of the server. */
final class RedisSettingsReader {

    private RedisSettingsReader() {
    }

    static RedisSecurity redisSecurity(SettingsReader r) {
        RedisSecurity.VerifyPeer verifyPeer;
        String mode = r.optional("bridge.redis.tls.verify-peer");
        try {
            verifyPeer = mode.isEmpty() ? RedisSecurity.VerifyPeer.FULL : RedisSecurity.VerifyPeer.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.redis.tls.verify-peer " + e.getMessage());
        }
        return new RedisSecurity(r.optional("bridge.redis.username"), r.secret("bridge.redis.password"),
                r.path("bridge.redis.tls.truststore"), r.secret("bridge.redis.tls.truststore-password"),
                r.path("bridge.redis.tls.keystore"), r.secret("bridge.redis.tls.keystore-password"), verifyPeer);
    }

    private static DurabilitySettings.LocalFsync localFsync(SettingsReader r) {
        String value = r.optional("bridge.redis.wait-aof-local");
        try {
            return DurabilitySettings.LocalFsync.parse(value.isEmpty() ? "auto" : value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.redis.wait-aof-local " + e.getMessage());
        }
    }

    /** {@code auto} (the default: every replica each master has connected now) or a number of replicas. */
    private static int waitReplicas(SettingsReader r) {
        String value = r.optional("bridge.redis.wait-replicas").strip();
        if (value.isEmpty() || value.equalsIgnoreCase("auto")) {
            return DurabilitySettings.EVERY_CONNECTED_REPLICA;
        }
        try {
            int replicas = Integer.parseInt(value);
            if (replicas >= 0) {
                return replicas;
            }
        } catch (NumberFormatException notANumber) {
            // said below
        }
        throw new IllegalArgumentException("setting bridge.redis.wait-replicas must be auto or a number of replicas (0 or more), got '"
                + value + "'");
    }

    static RedisExpectations redisExpectations(SettingsReader r, long redisTimeoutMs) {
        DurabilitySettings durability;
        try {
            durability = new DurabilitySettings(waitReplicas(r),
                    r.optional("bridge.redis.min-replicas").isEmpty() ? 0 : r.intValue("bridge.redis.min-replicas"),
                    localFsync(r),
                    r.optional("bridge.redis.wait-timeout-ms").isEmpty() ? 1_000 : r.longValue("bridge.redis.wait-timeout-ms"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith("setting ") ? e.getMessage()
                    : "setting bridge.redis." + e.getMessage());
        }
        if (durability.waitTimeoutMs() >= redisTimeoutMs) {
            // the wait must answer before Lettuce gives up on the command, or a slow replica reads as a dead Redis
            throw new IllegalArgumentException("setting bridge.redis.wait-timeout-ms (" + durability.waitTimeoutMs()
                    + ") must be below bridge.redis.command-timeout-ms (" + redisTimeoutMs + ")");
        }
        boolean allowEviction = !r.optional("bridge.redis.allow-eviction").isEmpty() && r.booleanValue("bridge.redis.allow-eviction");
        long checkIntervalMs = r.optional("bridge.redis.check-interval-ms").isEmpty() ? 300_000 : r.longValue("bridge.redis.check-interval-ms");
        if (checkIntervalMs < 1_000) {
            throw new IllegalArgumentException("setting bridge.redis.check-interval-ms must be at least 1000, got " + checkIntervalMs);
        }
        return new RedisExpectations(durability, allowEviction, checkIntervalMs);
    }
}
