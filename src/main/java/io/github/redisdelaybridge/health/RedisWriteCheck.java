package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness: DOWN unless Redis takes a write ({@link RedisConnection#writeProbe}): down, a replica after a failover that
 * Lettuce has not followed (READONLY), full under noeviction (OOM), or refusing for any other reason, each shown in the
 * check's message. A PING would pass on the first three. While Redis does not take writes the bridge holds inbound batches
 * unacknowledged and cannot settle deliveries; both resume by themselves, so this is not a liveness failure (restarting
 * the bridge would not help).
 */
public final class RedisWriteCheck extends AbstractHealthCheck {

    private static final long PROBE_TTL_MS = 60_000;

    private final RedisConnection redis;
    private final String probeKey;
    private final long timeoutMs;

    public RedisWriteCheck(RedisConnection redis, String probeKey, long timeoutMs) {
        super("redis-delay-bridge", "redis");
        this.redis = redis;
        this.probeKey = probeKey;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        try {
            redis.writeProbe(probeKey, PROBE_TTL_MS).get(timeoutMs, TimeUnit.MILLISECONDS);
            builder.detail("redis", "writable");
            builder.up();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            builder.down();
        } catch (Exception e) {
            String why = e instanceof java.util.concurrent.TimeoutException ? "no answer within " + timeoutMs + " ms" : Failures.rootMessage(e);
            builder.detail("redis", "not writable");
            builder.message("Redis does not take writes: " + why);
            builder.down();
        }
    }
}
