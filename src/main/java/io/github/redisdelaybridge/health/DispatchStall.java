package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.metrics.ClusterGauges;
import io.github.redisdelaybridge.store.inspection.StoreGauges;

/**
 * Whether this instance's dispatch loop is stalled: it has not completed a cycle for {@code stallMs} while messages are
 * due. A healthy loop completes a cycle at least every {@code bridge.dispatch.idle-poll-ms} plus a Redis timeout, also
 * while Redis is down (it backs off and returns) and while it waits for room in flight; a loop stuck longer is a bug or a
 * wedged thread that only a restart clears. Whether messages are due comes from the cluster gauges (cached for a few
 * seconds); while Redis does not answer that is unknown, and a loop is not called stalled on an unknown.
 */
public final class DispatchStall {

    private final Dispatcher dispatcher;
    private final ClusterGauges gauges;
    private final long stallMs;

    public DispatchStall(Dispatcher dispatcher, ClusterGauges gauges, long stallMs) {
        this.dispatcher = dispatcher;
        this.gauges = gauges;
        this.stallMs = stallMs;
    }

    /** Null when the loop is fine, else why it is stalled. */
    public String stalled() {
        long sinceCycle = dispatcher.millisSinceLastCycle();
        if (sinceCycle < stallMs) {
            return null;
        }
        StoreGauges current = gauges.current();
        if (current == null || !current.anyDue()) {
            return null;
        }
        return "the dispatch loop has not completed a cycle for " + sinceCycle + " ms (bridge.health.dispatch-stall-ms=" + stallMs
                + ") while messages are due (the earliest for " + current.oldestOverdueMs() + " ms)";
    }

    public long millisSinceLastCycle() {
        return dispatcher.millisSinceLastCycle();
    }
}
