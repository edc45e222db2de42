package io.github.redisdelaybridge.store;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.dispatch.AcknowledgeScript;
import io.github.redisdelaybridge.store.dispatch.ClaimScript;
import io.github.redisdelaybridge.store.dispatch.ClaimTag;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.ClaimedNames;
import io.github.redisdelaybridge.store.dispatch.DeadLetterScript;
import io.github.redisdelaybridge.store.dispatch.ReapExpiredLeasesScript;
import io.github.redisdelaybridge.store.dispatch.RecordFailureScript;
import io.github.redisdelaybridge.store.dispatch.RecordedFailure;
import io.github.redisdelaybridge.store.dispatch.ReleaseClaimScript;
import io.github.redisdelaybridge.store.dispatch.RescheduleScript;
import io.github.redisdelaybridge.store.dispatch.StoreDeadLettersScript;
import io.github.redisdelaybridge.store.form.StandInIds;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.CancelScript;
import io.github.redisdelaybridge.store.ingest.ChangeDueTimeScript;
import io.github.redisdelaybridge.store.ingest.DueTimeChange;
import io.github.redisdelaybridge.store.ingest.NamesCapListener;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.ingest.ScheduleScript;
import io.github.redisdelaybridge.store.inspection.DeadLetterEntry;
import io.github.redisdelaybridge.store.inspection.DeleteDeadLetterScript;
import io.github.redisdelaybridge.store.inspection.DueHistogram;
import io.github.redisdelaybridge.store.inspection.DueHistogramScript;
import io.github.redisdelaybridge.store.inspection.GaugesScript;
import io.github.redisdelaybridge.store.inspection.InspectScript;
import io.github.redisdelaybridge.store.inspection.ListDeadLettersScript;
import io.github.redisdelaybridge.store.inspection.ListPendingScript;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.inspection.ReplayDeadLetterScript;
import io.github.redisdelaybridge.store.inspection.ReplayResult;
import io.github.redisdelaybridge.store.inspection.SlotPage;
import io.github.redisdelaybridge.store.inspection.StatsScript;
import io.github.redisdelaybridge.store.inspection.StoreGauges;
import io.github.redisdelaybridge.store.inspection.StoreStats;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Every operation on delayed messages in Redis, one Lua script each (see {@code src/main/resources/lua}). What each
 * script takes and returns is stated once, in a class named after it ({@code claim.lua}: {@link ClaimScript}); this
 * class decides the calls (which slots, how many messages per call) and combines their results. Every call goes through
 * {@link #run}. Calls are asynchronous: Lettuce pipelines concurrent calls on one connection, so a batch split over
 * several slots costs one round trip, not one per slot.
 */
public final class DelayStore {

    /**
     * Messages per schedule, claim or acknowledge script call at most. A script blocks every other Redis
     * client while it runs, so a batch is split into calls of well under a millisecond each, sent pipelined
     * (one round trip still): on a busy host a call is stretched by however long Redis waits for a CPU,
     * and a short call rarely straddles such a wait, so a thundering herd stays out of SLOWLOG. It also
     * keeps Lua's unpack (which takes a few thousand values at most) far from its limit.
     */
    public static final int MESSAGES_PER_CALL = 100;
    /** Entries a list script examines per slot and call at most, however few match its filter. */
    public static final int LIST_SCAN_BUDGET = 1_000;
    /** How the id of a packed member that could not be resolved is shown (claim, listPending): then the member in hex. */
    public static final String UNRESOLVABLE_ID_PREFIX = "unresolvable-member:";

    private final RedisScriptingAsyncCommands<byte[], byte[]> redis;
    private final Keys keys;
    private final StoreLimits limits;
    private final ScriptTimings timings;
    private final NamesCapListener namesCap;
    private final ClaimedNames claimedNames;

    public DelayStore(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits) {
        this(redis, keys, limits, ScriptTimings.NONE, NamesCapListener.NONE);
    }

    /**
     * @param timings  told how long each script call took
     * @param namesCap told how many payloads were stored un-interned because a slot's names hash is full
     */
    public DelayStore(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits, ScriptTimings timings,
                      NamesCapListener namesCap) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
        this.timings = timings;
        this.namesCap = namesCap;
        this.claimedNames = new ClaimedNames(keys, this::run);
    }

    public Keys keys() {
        return keys;
    }

    public StoreLimits limits() {
        return limits;
    }

    /** Stores the requests; the returned list holds one result per request, in the same order. */
    public CompletableFuture<List<ScheduleResult>> schedule(List<ScheduleRequest> requests) {
        Map<Integer, List<Integer>> indexesBySlot = new TreeMap<>();
        for (int i = 0; i < requests.size(); i++) {
            indexesBySlot.computeIfAbsent(keys.slotOf(requests.get(i).messageId()), s -> new ArrayList<>()).add(i);
        }
        ScheduleResult[] results = new ScheduleResult[requests.size()];
        List<CompletableFuture<Void>> calls = new ArrayList<>();
        indexesBySlot.forEach((slot, indexes) -> {
            for (int from = 0; from < indexes.size(); from += MESSAGES_PER_CALL) {
                List<Integer> chunk = indexes.subList(from, Math.min(indexes.size(), from + MESSAGES_PER_CALL));
                List<ScheduleRequest> chunkRequests = new ArrayList<>(chunk.size());
                chunk.forEach(index -> chunkRequests.add(requests.get(index)));
                calls.add(run(ScheduleScript.call(keys, slot, limits.maxDelayMs(), limits.dedupeWindowMs(), limits.cancelWindowMs(), limits.names(),
                        chunkRequests)).thenAccept(stored -> {
                            for (int i = 0; i < stored.results().length; i++) {
                                results[chunk.get(i)] = stored.results()[i];
                            }
                            if (stored.uninterned() > 0) {
                                namesCap.storedUninterned(stored.uninterned());
                            }
                        }));
            }
        });
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(done -> List.of(results));
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
        return run(ClaimScript.call(keys, slot, limit, leaseMs, tag, aheadMs)).thenCompose(claim -> claimedNames.resolve(slot, claim));
    }

    /**
     * Gives back, due now and without counting an attempt, what the round {@code tag} leased in a slot and still holds there;
     * for a round whose claim answer never arrived (it may or may not have run). Returns how many messages it gave back.
     */
    public CompletableFuture<Long> releaseClaim(int slot, ClaimTag tag) {
        return run(ReleaseClaimScript.call(keys, slot, tag));
    }

    /** The stand-in id of a packed member whose stem code the slot's names hash lacks ({@link StandInIds#standIn}). */
    public String unresolvableId(int slot, byte[] member) {
        return StandInIds.standIn(member, keys, slot);
    }

    /** Deletes delivered messages of one slot; returns how many still held the caller's lease. */
    public CompletableFuture<Long> acknowledge(int slot, List<ClaimedMessage> delivered) {
        if (delivered.size() <= MESSAGES_PER_CALL) {
            return run(AcknowledgeScript.call(keys, slot, limits.dedupeWindowMs(), delivered));
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (int from = 0; from < delivered.size(); from += MESSAGES_PER_CALL) {
            List<ClaimedMessage> chunk = delivered.subList(from, Math.min(delivered.size(), from + MESSAGES_PER_CALL));
            total = total.thenCombine(run(AcknowledgeScript.call(keys, slot, limits.dedupeWindowMs(), chunk)), Long::sum);
        }
        return total;
    }

    /**
     * Gives a claimed message back to the due set, due {@code delayMs} from now.
     * Returns its attempt count afterwards, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> reschedule(ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        return run(RescheduleScript.call(keys, message, delayMs, countAsFailedAttempt));
    }

    /**
     * Counts a failed publish of a claimed message and returns how long it has been failing (its first failure is remembered
     * until the message is delivered, dead-lettered or cancelled); the message stays in flight. {@link RecordedFailure#leaseLost()}
     * when this instance no longer held its lease (nothing changed).
     */
    public CompletableFuture<RecordedFailure> recordFailure(ClaimedMessage message) {
        return run(RecordFailureScript.call(keys, message));
    }

    /** Returns up to {@code limit} messages of one slot whose lease expired to the due set. */
    public CompletableFuture<Long> reapExpiredLeases(int slot, int limit) {
        return run(ReapExpiredLeasesScript.call(keys, slot, limit));
    }

    /**
     * Moves a claimed message into the dead-letter store (after the dead-letter channel has it), keyed by its id
     * (or its stand-in id). Returns 1, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> deadLetter(ClaimedMessage message, byte[] record) {
        return run(DeadLetterScript.call(keys, message, record, deadLettersPerSlot(), limits.deadLetterMaxAgeMs(), deadLetterBytesPerSlot()));
    }

    /** Keeps records of messages refused at ingest in the dead-letter store; keyed by message id. */
    public CompletableFuture<Void> storeDeadLetters(Map<String, byte[]> recordsById) {
        Map<Integer, List<Map.Entry<String, byte[]>>> bySlot = new TreeMap<>();
        recordsById.entrySet().forEach(e -> bySlot.computeIfAbsent(keys.slotOf(e.getKey()), s -> new ArrayList<>()).add(e));
        List<CompletableFuture<Long>> calls = new ArrayList<>();
        bySlot.forEach((slot, records) ->
                calls.add(run(StoreDeadLettersScript.call(keys, slot, deadLettersPerSlot(), limits.deadLetterMaxAgeMs(),
                        deadLetterBytesPerSlot(), records))));
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /**
     * Withdraws a pending message so it is never delivered. When the id is not known,
     * {@code recordIfUnknown} records the cancel so that the message is dropped if it arrives later.
     */
    public CompletableFuture<CancelOutcome> cancel(String messageId, boolean recordIfUnknown) {
        return run(CancelScript.call(keys, messageId, limits.cancelWindowMs(), limits.dedupeWindowMs(), recordIfUnknown, limits.names()));
    }

    /** Gives a pending message a new due time; its envelope and attempt count stay. */
    public CompletableFuture<DueTimeChange> changeDueTime(String messageId, DueTime dueTime) {
        return run(ChangeDueTimeScript.call(keys, messageId, dueTime, limits.maxDelayMs()));
    }

    /** Everything Redis knows about one id, read in one step. */
    public CompletableFuture<MessageFacts> inspect(String messageId) {
        return run(InspectScript.call(keys, messageId, limits.dedupeWindowMs(), limits.cancelWindowMs()));
    }

    /**
     * A page of pending messages over all slots, in due order (then member order: {@link ListPosition}), starting after
     * {@code after} (null: from the first). {@code dueBefore} (exclusive) and {@code target} narrow it; null for no bound.
     */
    public CompletableFuture<Listing<PendingEntry>> listPending(ListPosition after, Long dueBefore, String target, int limit) {
        List<CompletableFuture<SlotPage<PendingEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            pages.add(run(ListPendingScript.call(keys, slot, after, dueBefore, limit, target, LIST_SCAN_BUDGET)));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /** A page of dead letters over all slots, oldest first, starting after {@code after} (null: from the oldest). */
    public CompletableFuture<Listing<DeadLetterEntry>> listDeadLetters(ListPosition after, String reason, int limit) {
        List<CompletableFuture<SlotPage<DeadLetterEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            pages.add(run(ListDeadLettersScript.call(keys, slot, after, limit, reason, LIST_SCAN_BUDGET)));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /**
     * Schedules a dead letter again and removes it from the dead-letter store, in one step, provided the
     * stored record is still {@code recordRead}. The replayed id's delivered and cancel records are cleared.
     */
    public CompletableFuture<ReplayResult> replayDeadLetter(byte[] recordRead, ScheduleRequest request) {
        return run(ReplayDeadLetterScript.call(keys, recordRead, request, limits.maxDelayMs(), limits.names()));
    }

    /** Forgets a dead letter; true if there was one. */
    public CompletableFuture<Boolean> deleteDeadLetter(String messageId) {
        return run(DeleteDeadLetterScript.call(keys, messageId));
    }

    /**
     * Pending messages by when they fall due over all slots, in {@code buckets} periods of {@code bucketMs} from Redis's now:
     * one read-only call per slot, sent together (one round trip on a single server).
     */
    public CompletableFuture<DueHistogram> dueHistogram(long bucketMs, int buckets) {
        List<CompletableFuture<DueHistogram>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(run(DueHistogramScript.call(keys, slot, bucketMs, buckets)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(DueHistogram::plus).orElseThrow());
    }

    /** Counts by state over all slots, and the earliest due time. */
    public CompletableFuture<StoreStats> stats() {
        List<CompletableFuture<StoreStats>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(run(StatsScript.call(keys, slot, limits.dedupeWindowMs(), limits.cancelWindowMs())));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(StoreStats::plus).orElseThrow());
    }

    /**
     * What the cluster-wide gauges show, over all slots: one read-only call per slot, sent together (one round trip on a
     * single server; one per master on a Cluster).
     */
    public CompletableFuture<StoreGauges> gauges(long overdueThresholdMs) {
        List<CompletableFuture<StoreGauges>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(run(GaugesScript.call(keys, slot, overdueThresholdMs)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(StoreGauges::plus).orElseThrow());
    }

    /** Every script call goes through here: the one place to observe them (one call = one EVALSHA, or EVAL on NOSCRIPT). */
    private <T> CompletableFuture<T> run(ScriptCall<T> call) {
        long start = System.nanoTime();
        String script = call.contract().script().name();
        return call.run(redis).whenComplete((result, failure) -> timings.completed(script, System.nanoTime() - start));
    }

    private long deadLettersPerSlot() {
        return Math.max(1, limits.deadLetterMaxCount() / keys.slotCount());
    }

    private long deadLetterBytesPerSlot() {
        return Math.max(1, limits.deadLetterMaxBytes() / keys.slotCount());
    }
}
