package io.github.redisdelaybridge.metrics;

/** What this instance's dispatch-loop gauges read of the loop: a read-only view, so the metrics need not know the loop. */
public interface DispatchLoopState {

    /** Messages published and not yet settled in Redis. */
    int inFlight();

    /** How long ago the latest dispatch cycle ended (since the loop was created, before the first one ends). */
    long millisSinceLastCycle();
}
