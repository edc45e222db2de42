package io.github.redisdelaybridge.store.inspection;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The store as operators' tools see it: the admin API's reads (one message, pages of pending messages and dead letters,
 * counts, the due histogram) and its dead-letter writes (replay, delete), and the cluster-wide gauges. One Lua script per
 * operation ({@code inspect.lua}: {@link InspectScript}); the reads over all slots send one call per slot, together.
 */
public final class InspectionStore {

    /** Entries a list script examines per slot and call at most, however few match its filter. */
    public static final int LIST_SCAN_BUDGET = 1_000;
    /**
     * Messages whose target a count reads per slot and call at most: up to this many in range, the count of those that
     * match a target filter is exact; beyond, it is estimated from this many, evenly spaced (within about 3 % of the
     * slot's messages in range, at 95 % confidence).
     */
    public static final int COUNT_SAMPLE_SIZE = 1_000;

    private final ScriptRunner runner;
    private final Keys keys;
    private final StoreLimits limits;

    public InspectionStore(ScriptRunner runner, Keys keys, StoreLimits limits) {
        this.runner = runner;
        this.keys = keys;
        this.limits = limits;
    }

    public Keys keys() {
        return keys;
    }

    public StoreLimits limits() {
        return limits;
    }

    /** Everything Redis knows about one id, read in one step. */
    public CompletableFuture<MessageFacts> inspect(String messageId) {
        return runner.run(InspectScript.call(keys, messageId, limits.dedupeWindowMs(), limits.cancelWindowMs()));
    }

    /**
     * A page of pending messages over all slots, in due order (then member order: {@link ListPosition}), starting after
     * {@code after} (null: from the first). {@code dueBefore} (exclusive) and {@code target} narrow it; null for no bound.
     */
    public CompletableFuture<Listing<PendingEntry>> listPending(ListPosition after, Long dueBefore, String target, int limit) {
        return listPending(after, new PendingFilter(null, dueBefore, target), limit);
    }

    /**
     * A page of the pending messages {@code filter} covers, over all slots, in due order (then member order:
     * {@link ListPosition}), starting after {@code after} (null: from the first the filter covers).
     */
    public CompletableFuture<Listing<PendingEntry>> listPending(ListPosition after, PendingFilter filter, int limit) {
        ListPosition start = filter.start(after);
        List<CompletableFuture<SlotPage<PendingEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            pages.add(runner.run(ListPendingScript.call(keys, slot, start, filter.dueBefore(), limit, filter.target(), LIST_SCAN_BUDGET)));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /**
     * How many pending messages {@code filter} covers: one read-only call per slot, sent together, each reading the
     * target of at most {@link #COUNT_SAMPLE_SIZE} messages.
     */
    public CompletableFuture<PendingTotals> countPending(PendingFilter filter) {
        List<CompletableFuture<PendingTotals>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(runner.run(CountPendingScript.call(keys, slot, filter, COUNT_SAMPLE_SIZE)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(PendingTotals::plus).orElseThrow());
    }

    /**
     * A page of a group's pending and in-flight messages over all slots, in due order (then member order: {@link ListPosition}),
     * starting after {@code after} (null: from the first): the group's index, so its cost grows with the page, not with
     * what else is pending.
     */
    public CompletableFuture<Listing<GroupEntry>> listGroup(String group, ListPosition after, int limit) {
        List<CompletableFuture<SlotPage<GroupEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            pages.add(runner.run(ListGroupScript.call(keys, slot, group, after, limit, LIST_SCAN_BUDGET)));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /** A page of dead letters over all slots, oldest first, starting after {@code after} (null: from the oldest). */
    public CompletableFuture<Listing<DeadLetterEntry>> listDeadLetters(ListPosition after, String reason, int limit) {
        List<CompletableFuture<SlotPage<DeadLetterEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            pages.add(runner.run(ListDeadLettersScript.call(keys, slot, after, limit, reason, LIST_SCAN_BUDGET)));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /**
     * Schedules a dead letter again and removes it from the dead-letter store, in one step, provided the
     * stored record is still {@code recordRead}. The replayed id's delivered and cancel records are cleared.
     */
    public CompletableFuture<ReplayResult> replayDeadLetter(byte[] recordRead, ScheduleRequest request) {
        return runner.run(ReplayDeadLetterScript.call(keys, recordRead, request, limits.maxDelayMs(), limits.names()));
    }

    /** Forgets a dead letter; true if there was one. */
    public CompletableFuture<Boolean> deleteDeadLetter(String messageId) {
        return runner.run(DeleteDeadLetterScript.call(keys, messageId));
    }

    /**
     * Pending messages by when they fall due over all slots, in {@code buckets} periods of {@code bucketMs} from Redis's now:
     * one read-only call per slot, sent together (one round trip on a single server).
     */
    public CompletableFuture<DueHistogram> dueHistogram(long bucketMs, int buckets) {
        List<CompletableFuture<DueHistogram>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(runner.run(DueHistogramScript.call(keys, slot, bucketMs, buckets)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(DueHistogram::plus).orElseThrow());
    }

    /** Counts by state over all slots, and the earliest due time. */
    public CompletableFuture<StoreStats> stats() {
        List<CompletableFuture<StoreStats>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            calls.add(runner.run(StatsScript.call(keys, slot, limits.dedupeWindowMs(), limits.cancelWindowMs())));
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
            calls.add(runner.run(GaugesScript.call(keys, slot, overdueThresholdMs)));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                .thenApply(done -> calls.stream().map(CompletableFuture::join).reduce(StoreGauges::plus).orElseThrow());
    }
}
