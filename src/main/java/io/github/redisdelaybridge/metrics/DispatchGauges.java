package io.github.redisdelaybridge.metrics;

/**
 * This instance's dispatch-loop gauges: {@code bridge_dispatch_in_flight} and {@code bridge_dispatch_last_cycle_age_seconds}
 * (docs/observe.md). Per instance, unlike {@link ClusterGauges}: each reads this instance's loop, not Redis.
 */
public final class DispatchGauges {

    private DispatchGauges() {
    }

    public static void register(BridgeMetrics metrics, DispatchLoopState loop) {
        metrics.gauge("bridge.dispatch.in.flight", "messages published and not yet settled in Redis", loop::inFlight);
        metrics.gauge("bridge.dispatch.last.cycle.age.seconds", "seconds since this instance's dispatch loop last completed a cycle"
                + " (a cycle lasts at most bridge.dispatch.idle-poll-ms, plus a Redis timeout)", () -> loop.millisSinceLastCycle() / 1000.0);
    }
}
