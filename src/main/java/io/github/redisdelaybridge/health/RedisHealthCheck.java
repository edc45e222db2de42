package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.store.RedisConnection;
import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness: DOWN while Redis does not answer a PING. While it is down the bridge holds inbound batches
 * unacknowledged and pauses dispatching; both resume by themselves, so this is not a liveness failure
 * (restarting the bridge would not help).
 */
public final class RedisHealthCheck extends AbstractHealthCheck {

    private final RedisConnection redis;
    private final long timeoutMs;

    public RedisHealthCheck(RedisConnection redis, long timeoutMs) {
        super("redis-delay-bridge", "redis");
        this.redis = redis;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        try {
            String pong = redis.ping().get(timeoutMs, java.util.concurrent.TimeUnit.MILLISECONDS);
            builder.detail("redis", pong);
            builder.up();
        } catch (Exception e) {
            builder.detail("redis", "unreachable");
            builder.message("Redis does not answer: " + e.getMessage());
            builder.down();
        }
    }
}
