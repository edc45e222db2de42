package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives back at once, in every slot, the messages that earlier processes of this instance id still lease: run once this
 * process has taken the instance id from a process that is gone ({@code health/InstanceIdGuard}), so that a restart after a
 * crash does not wait out the dead process's leases. A slot that does not answer is left to the lease reaper.
 */
public final class LeaseTakeBack {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseTakeBack.class);

    private final DispatchStore store;
    private final String instanceId;
    private final String ownClaimerId;
    private final long redisTimeoutMs;

    public LeaseTakeBack(DispatchStore store, String instanceId, String ownClaimerId, long redisTimeoutMs) {
        this.store = store;
        this.instanceId = instanceId;
        this.ownClaimerId = ownClaimerId;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    /**
     * Gives back what processes of this instance id claimed before {@code tookIdAt} (Redis's clock: when this process took the
     * id) and still lease; {@code previousHolder}: the token this process replaced, for the log (null: the id was free).
     * Returns how many messages it gave back.
     */
    public long takeBack(long tookIdAt, String previousHolder) {
        long total = 0;
        int failedSlots = 0;
        for (int slot = 0; slot < store.keys().slotCount(); slot++) {
            try {
                total += store.takeBackLeases(slot, instanceId, ownClaimerId, tookIdAt).get(redisTimeoutMs, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return total;
            } catch (Exception e) {
                failedSlots++;
                LOG.debug("could not take back the leases of slot {}: {}", slot, e.toString());
            }
        }
        if (total > 0 || previousHolder != null || failedSlots > 0) {
            LOG.info("took back {} leases of an earlier process of bridge.instance-id {} ({}); they are dispatched again now, no attempt"
                            + " counted{}", total, instanceId, previousHolder == null ? "the id was free" : "gone: " + previousHolder,
                    failedSlots == 0 ? "" : "; " + failedSlots + " slots did not answer and wait out their leases");
        }
        return total;
    }
}
