package io.github.redisdelaybridge.store.ingest;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import java.util.concurrent.CompletableFuture;

/**
 * Cancels or reschedules every pending message of a group: slot after slot, each slot's index in batches of {@link #BATCH}
 * (one script call each, atomic), so that a group of any size never holds Redis for long. A message in flight is counted
 * and left alone. The due time of a reschedule is fixed by the first call (Redis's clock) and given to every later one.
 * Each call is chained to the previous one's answer: no thread waits in between.
 */
final class GroupOperations {

    /** Index entries one call reads at most: a few milliseconds of Redis's time. */
    static final int BATCH = 500;

    private final ScriptRunner runner;
    private final Keys keys;
    private final StoreLimits limits;

    GroupOperations(ScriptRunner runner, Keys keys, StoreLimits limits) {
        this.runner = runner;
        this.keys = keys;
        this.limits = limits;
    }

    CompletableFuture<GroupOutcome> cancel(String group, boolean dryRun) {
        return cancelFrom(group, dryRun, 0, 0, new GroupOutcome(0, 0, -1, false));
    }

    private CompletableFuture<GroupOutcome> cancelFrom(String group, boolean dryRun, int slot, long offset, GroupOutcome sum) {
        if (slot >= keys.slotCount()) {
            return CompletableFuture.completedFuture(sum);
        }
        return runner.run(CancelGroupScript.call(keys, slot, group, limits.cancelWindowMs(), BATCH, offset, dryRun)).thenCompose(batch -> {
            GroupOutcome added = new GroupOutcome(sum.changed() + batch.cancelled(), sum.inFlight() + batch.inFlight(), -1, false);
            return batch.done() ? cancelFrom(group, dryRun, slot + 1, 0, added) : cancelFrom(group, dryRun, slot, batch.nextOffset(), added);
        });
    }

    CompletableFuture<GroupOutcome> reschedule(String group, DueTime dueTime, boolean dryRun) {
        return rescheduleFrom(group, dueTime, dryRun, 0, 0, 0, new GroupOutcome(0, 0, -1, false));
    }

    private CompletableFuture<GroupOutcome> rescheduleFrom(String group, DueTime dueTime, boolean dryRun, int slot, long phase, long offset,
                                                           GroupOutcome sum) {
        if (slot >= keys.slotCount()) {
            return CompletableFuture.completedFuture(sum);
        }
        return runner.run(RescheduleGroupScript.call(keys, slot, group, dueTime, limits.maxDelayMs(), BATCH, phase, offset, dryRun))
                .thenCompose(batch -> {
                    if (batch.dueAt() < 0) {
                        return CompletableFuture.completedFuture(new GroupOutcome(sum.changed(), sum.inFlight(), -1, true));
                    }
                    GroupOutcome added = new GroupOutcome(sum.changed() + batch.rescheduled(), sum.inFlight() + batch.inFlight(),
                            batch.dueAt(), false);
                    DueTime fixed = new DueTime.At(batch.dueAt());
                    return batch.nextPhase() >= RescheduleGroupScript.DONE
                            ? rescheduleFrom(group, fixed, dryRun, slot + 1, 0, 0, added)
                            : rescheduleFrom(group, fixed, dryRun, slot, batch.nextPhase(), batch.nextOffset(), added);
                });
    }
}
