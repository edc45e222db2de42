package io.github.redisdelaybridge.fault;

import io.github.redisdelaybridge.testkit.BridgeProcess;
import io.github.redisdelaybridge.testkit.LocalRedis;
import java.util.Map;

/**
 * Settings for a bridge that a test kills and starts again as the same instance: a child process with a fixed
 * bridge.instance-id, on the local Redis with the test's keys cleared, its leases checked every second.
 */
final class SameInstanceRestart {

    private SameInstanceRestart() {
    }

    static Map<String, String> settings(String name, long leaseMs, long publishTimeoutMs) {
        LocalRedis.deleteKeys("test-" + name);
        Map<String, String> settings = BridgeProcess.settings(name, LocalRedis.URI);
        settings.put("bridge.instance-id", name + "-0");
        settings.put("bridge.lease.duration-ms", Long.toString(leaseMs));
        settings.put("bridge.dispatch.publish-timeout-ms", Long.toString(publishTimeoutMs));
        settings.put("bridge.lease.reap-interval-ms", "1000");
        return settings;
    }
}
