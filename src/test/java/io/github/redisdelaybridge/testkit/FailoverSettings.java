package io.github.redisdelaybridge.testkit;

import java.util.Map;

/**
 * The bridge settings the Redis failover tests and benchmark share: short Redis timeouts and leases, so a killed master
 * costs seconds rather than the production defaults' minutes, and the replica barrier under test.
 */
public final class FailoverSettings {

    private FailoverSettings() {
    }

    /** Puts the failover timings into {@code settings}, with {@code bridge.redis.wait-replicas} set to {@code waitReplicas}. */
    public static Map<String, String> apply(Map<String, String> settings, String waitReplicas) {
        settings.put("bridge.redis.wait-replicas", waitReplicas);
        settings.put("bridge.redis.wait-timeout-ms", "500");
        settings.put("bridge.redis.command-timeout-ms", "2000");
        settings.put("bridge.lease.duration-ms", "5000");
        settings.put("bridge.lease.reap-interval-ms", "1000");
        settings.put("bridge.dispatch.publish-timeout-ms", "4000");
        return settings;
    }

}
