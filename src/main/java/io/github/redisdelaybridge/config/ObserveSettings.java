package io.github.redisdelaybridge.config;

/**
 * What the metrics and health checks need ({@code bridge.metrics.*}, {@code bridge.health.*}).
 *
 * @param overdueThresholdMs a pending message due more than this long ago counts as overdue ({@code bridge_messages_overdue})
 * @param gaugeCacheMs       how long one read of the cluster-wide gauges from Redis serves scrapes
 * @param dispatchStallMs    liveness fails when the dispatch loop has not completed a cycle for this long while messages are due
 */
public record ObserveSettings(long overdueThresholdMs, long gaugeCacheMs, long dispatchStallMs) {

    public ObserveSettings {
        if (overdueThresholdMs < 0) {
            throw new IllegalArgumentException("setting bridge.metrics.overdue-threshold-ms must not be negative, got " + overdueThresholdMs);
        }
        if (gaugeCacheMs < 0) {
            throw new IllegalArgumentException("setting bridge.metrics.cache-ms must not be negative, got " + gaugeCacheMs);
        }
        if (dispatchStallMs < 1_000) {
            throw new IllegalArgumentException("setting bridge.health.dispatch-stall-ms must be at least 1000, got " + dispatchStallMs);
        }
    }
}
