package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Returns messages whose lease expired (their claimer died or stalled) to the due set. */
public final class LeaseReaper {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseReaper.class);
    private static final int PER_CALL = 1_000;

    private final DispatchStore store;
    private final long redisTimeoutMs;
    private final BridgeMetrics metrics;

    public LeaseReaper(DispatchStore store, long redisTimeoutMs, BridgeMetrics metrics) {
        this.store = store;
        this.redisTimeoutMs = redisTimeoutMs;
        this.metrics = metrics;
    }

    /** Camel bean method. Returns how many messages were taken back. */
    public long reapExpiredLeases() {
        long total = 0;
        try {
            for (int slot = 0; slot < store.keys().slotCount(); slot++) {
                long reaped;
                do {
                    reaped = store.reapExpiredLeases(slot, PER_CALL).get(redisTimeoutMs, TimeUnit.MILLISECONDS);
                    total += reaped;
                } while (reaped == PER_CALL);
            }
        } catch (Exception e) {
            LOG.debug("lease reaping skipped: {}", e.toString());
        }
        if (total > 0) {
            metrics.leasesReaped(total);
            LOG.warn("took back {} messages whose lease expired; they will be delivered again", total);
        }
        return total;
    }
}
