package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.ScriptRunner.MESSAGES_PER_CALL;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The store as the dispatch loop and its helpers use it: claim due messages under a lease, settle them (acknowledge,
 * reschedule, record a failure, dead-letter), and give back what a lost claim or an expired lease holds. One Lua script per operation ({@code claim.lua}: {@link ClaimScript}); this class chooses the calls (how
 * many messages per call) and combines their results.
 */
public final class DispatchStore {

    private final ScriptRunner runner;
    private final Keys keys;
    private final StoreLimits limits;
    private final ClaimedNames claimedNames;

    public DispatchStore(ScriptRunner runner, Keys keys, StoreLimits limits) {
        this.runner = runner;
        this.keys = keys;
        this.limits = limits;
        this.claimedNames = new ClaimedNames(keys, runner::run);
    }

    public Keys keys() {
        return keys;
    }

    /**
     * Claims up to {@code limit} due messages of one slot under a lease of {@code leaseMs} (at least 1: a later
     * claim of the same message must get a later lease deadline, see lua/lib/leases.lua).
     */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs) {
        return claim(slot, limit, leaseMs, null);
    }

    /**
     * As {@link #claim(int, int, long)}, and records what this round leased in the slot under {@code tag} (null: nothing
     * recorded), so that {@link #releaseClaim} can give it back if the answer never arrives.
     */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs, ClaimTag tag) {
        return claim(slot, limit, leaseMs, tag, 0);
    }

    /**
     * As {@link #claim(int, int, long, ClaimTag)}, and claims messages due up to {@code aheadMs} after Redis's clock too: the
     * caller holds those until they are due ({@code dispatch/ReleaseClock}).
     */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs, ClaimTag tag, long aheadMs) {
        if (aheadMs < 0) {
            throw new IllegalArgumentException("a claim looks ahead 0 ms or more, got " + aheadMs);
        }
        if (leaseMs < 1) {
            throw new IllegalArgumentException("a lease lasts at least 1 ms, got " + leaseMs);
        }
        if (limit <= MESSAGES_PER_CALL) {
            return claimOnce(slot, limit, leaseMs, tag, aheadMs);
        }
        List<CompletableFuture<ClaimedBatch>> chunks = new ArrayList<>();
        for (int remaining = limit; remaining > 0; remaining -= MESSAGES_PER_CALL) {
            chunks.add(claimOnce(slot, Math.min(remaining, MESSAGES_PER_CALL), leaseMs, tag, aheadMs));
        }
        return CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<ClaimedMessage> messages = new ArrayList<>();
            chunks.forEach(chunk -> messages.addAll(chunk.join().messages()));
            // the last call ran last: its clock is the latest and its next due time is what is still waiting
            ClaimedBatch last = chunks.get(chunks.size() - 1).join();
            return new ClaimedBatch(last.redisNow(), last.nextDue(), messages);
        });
    }

    /** One claim call; its members and payloads come back as stored, and are read here ({@link ClaimedNames}). */
    private CompletableFuture<ClaimedBatch> claimOnce(int slot, int limit, long leaseMs, ClaimTag tag, long aheadMs) {
        return runner.run(ClaimScript.call(keys, slot, limit, leaseMs, tag, aheadMs)).thenCompose(claim -> claimedNames.resolve(slot, claim));
    }

    /**
     * Gives back, due now and without counting an attempt, what the round {@code tag} leased in a slot and still holds there;
     * for a round whose claim answer never arrived (it may or may not have run). Returns how many messages it gave back.
     */
    public CompletableFuture<Long> releaseClaim(int slot, ClaimTag tag) {
        return runner.run(ReleaseClaimScript.call(keys, slot, tag));
    }

    /** Deletes delivered messages of one slot; returns how many still held the caller's lease. */
    public CompletableFuture<Long> acknowledge(int slot, List<ClaimedMessage> delivered) {
        if (delivered.size() <= MESSAGES_PER_CALL) {
            return runner.run(AcknowledgeScript.call(keys, slot, limits.dedupeWindowMs(), delivered));
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (int from = 0; from < delivered.size(); from += MESSAGES_PER_CALL) {
            List<ClaimedMessage> chunk = delivered.subList(from, Math.min(delivered.size(), from + MESSAGES_PER_CALL));
            total = total.thenCombine(runner.run(AcknowledgeScript.call(keys, slot, limits.dedupeWindowMs(), chunk)), Long::sum);
        }
        return total;
    }

    /**
     * Gives a claimed message back to the due set, due {@code delayMs} from now.
     * Returns its attempt count afterwards, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> reschedule(ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        return runner.run(RescheduleScript.call(keys, message, delayMs, countAsFailedAttempt));
    }

    /**
     * Gives claimed messages of one slot back to the due set, each due after its own delay from Redis's clock, with no
     * attempt counted and their original due times kept. Returns how many still held the caller's lease.
     */
    public CompletableFuture<Long> defer(int slot, List<DeferClaimedScript.Deferral> deferrals) {
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (int from = 0; from < deferrals.size(); from += MESSAGES_PER_CALL) {
            List<DeferClaimedScript.Deferral> chunk = deferrals.subList(from, Math.min(deferrals.size(), from + MESSAGES_PER_CALL));
            total = total.thenCombine(runner.run(DeferClaimedScript.call(keys, slot, chunk)), Long::sum);
        }
        return total;
    }

    /** Takes up to {@code asked} tokens from a configured target pattern's bucket, shared by every instance ({@code takeTokens.lua}). */
    public CompletableFuture<TokensTaken> takeTokens(String patternName, double ratePerSecond, int asked) {
        return runner.run(TakeTokensScript.call(keys, patternName, ratePerSecond, asked));
    }

    /**
     * Counts a failed publish of a claimed message and returns how long it has been failing (its first failure is remembered
     * until the message is delivered, dead-lettered or cancelled); the message stays in flight. {@link RecordedFailure#leaseLost()}
     * when this instance no longer held its lease (nothing changed).
     */
    public CompletableFuture<RecordedFailure> recordFailure(ClaimedMessage message) {
        return runner.run(RecordFailureScript.call(keys, message));
    }

    /**
     * Gives back, due now (or at the latest due time of their claim, if later), the messages of one slot that earlier processes
     * of {@code instanceId} claimed before {@code tookIdAt} (Redis's clock) and still lease, never those of {@code ownClaimerId};
     * for a process that took the instance id from one that is gone. Returns how many it gave back.
     */
    public CompletableFuture<Long> takeBackLeases(int slot, String instanceId, String ownClaimerId, long tookIdAt) {
        return runner.run(TakeBackLeasesScript.call(keys, slot, instanceId, ownClaimerId, tookIdAt));
    }

    /** Returns up to {@code limit} messages of one slot whose lease expired to the due set. */
    public CompletableFuture<Long> reapExpiredLeases(int slot, int limit) {
        return runner.run(ReapExpiredLeasesScript.call(keys, slot, limit));
    }

    /**
     * Moves a claimed message into the dead-letter store (after the dead-letter channel has it), keyed by its id
     * (or its stand-in id). Returns 1, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> deadLetter(ClaimedMessage message, byte[] record) {
        return runner.run(DeadLetterScript.call(keys, message, record, limits.deadLetterMaxCountPerSlot(keys.slotCount()),
                limits.deadLetterMaxAgeMs(), limits.deadLetterMaxBytesPerSlot(keys.slotCount())));
    }
}
