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
        return CompletableFuture.supplyAsync(() -> {
            long cancelled = 0;
            long inFlight = 0;
            for (int slot = 0; slot < keys.slotCount(); slot++) {
                long offset = 0;
                CancelGroupScript.Batch batch;
                do {
                    batch = runner.run(CancelGroupScript.call(keys, slot, group, limits.cancelWindowMs(), BATCH, offset, dryRun)).join();
                    cancelled += batch.cancelled();
                    inFlight += batch.inFlight();
                    offset = batch.nextOffset();
                } while (!batch.done());
            }
            return new GroupOutcome(cancelled, inFlight, -1, false);
        });
    }

    CompletableFuture<GroupOutcome> reschedule(String group, DueTime dueTime, boolean dryRun) {
        return CompletableFuture.supplyAsync(() -> {
            DueTime due = dueTime;
            long rescheduled = 0;
            long inFlight = 0;
            long dueAt = -1;
            for (int slot = 0; slot < keys.slotCount(); slot++) {
                long phase = 0;
                long offset = 0;
                while (phase < RescheduleGroupScript.DONE) {
                    RescheduleGroupScript.Batch batch = runner.run(RescheduleGroupScript.call(keys, slot, group, due, limits.maxDelayMs(),
                            BATCH, phase, offset, dryRun)).join();
                    if (batch.dueAt() < 0) {
                        return new GroupOutcome(rescheduled, inFlight, -1, true);
                    }
                    dueAt = batch.dueAt();
                    due = new DueTime.At(dueAt);
                    rescheduled += batch.rescheduled();
                    inFlight += batch.inFlight();
                    phase = batch.nextPhase();
                    offset = batch.nextOffset();
                }
            }
            return new GroupOutcome(rescheduled, inFlight, dueAt, false);
        });
    }
}
