package io.github.redisdelaybridge.health;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/** Liveness: DOWN while the dispatch loop is stalled ({@link DispatchStall}); a restart is what helps then. */
public final class DispatchLivenessCheck extends AbstractHealthCheck {

    private final DispatchStall stall;

    public DispatchLivenessCheck(DispatchStall stall) {
        super("redis-delay-bridge", "dispatch");
        this.stall = stall;
    }

    @Override
    public boolean isLiveness() {
        return true; // Camel's checks are readiness checks unless they say otherwise
    }

    @Override
    public boolean isReadiness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("last.cycle.ms.ago", stall.millisSinceLastCycle());
        String stalled = stall.stalled();
        if (stalled == null) {
            builder.up();
        } else {
            builder.message(stalled);
            builder.down();
        }
    }
}
