package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.metrics.BridgeMetrics;
import java.util.Collection;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;

/**
 * Health as metrics, for alerts that need no HTTP probe: {@code bridge_ready} (1 while every readiness check is UP, the
 * same answer as /observe/health/ready) and {@code bridge_dispatch_stalled} (1 while {@link DispatchStall} says so).
 */
public final class HealthGauges {

    private HealthGauges() {
    }

    public static void register(BridgeMetrics metrics, CamelContext context, DispatchStall stall) {
        metrics.gauge("bridge.ready", "1 while every readiness check is UP (as /observe/health/ready), else 0", () -> ready(context) ? 1 : 0);
        metrics.gauge("bridge.dispatch.stalled", "1 while the dispatch loop has not completed a cycle for bridge.health.dispatch-stall-ms"
                + " while messages are due (liveness fails), else 0", () -> stall.stalled() == null ? 0 : 1);
    }

    private static boolean ready(CamelContext context) {
        if (!context.isStarted()) {
            return false;
        }
        Collection<HealthCheck.Result> results = HealthCheckHelper.invokeReadiness(context);
        return results.stream().allMatch(r -> r.getState() == HealthCheck.State.UP);
    }
}
