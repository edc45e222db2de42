package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.ScriptRunner.MESSAGES_PER_CALL;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * The store as messages and controls from outside reach it: the inbound scheduler stores messages and applies their
 * cancel, reschedule and replace controls, keeps the records of the messages it refuses, and the admin API's message writes (cancel,
 * new due time) run the same scripts. One Lua script per operation ({@code schedule.lua}: {@link ScheduleScript}); this class
 * chooses the calls (which slots, how many messages per call) and combines their results.
 */
public final class IngestStore {

    private final ScriptRunner runner;
    private final Keys keys;
    private final StoreLimits limits;
    private final NamesCapListener namesCap;
    private final GroupOperations groups;

    public IngestStore(ScriptRunner runner, Keys keys, StoreLimits limits) {
        this(runner, keys, limits, NamesCapListener.NONE);
    }

    /** @param namesCap told how many payloads were stored un-interned because a slot's names hash is full */
    public IngestStore(ScriptRunner runner, Keys keys, StoreLimits limits, NamesCapListener namesCap) {
        this.runner = runner;
        this.keys = keys;
        this.limits = limits;
        this.namesCap = namesCap;
        this.groups = new GroupOperations(runner, keys, limits);
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
                calls.add(runner.run(ScheduleScript.call(keys, slot, limits.maxDelayMs(), limits.dedupeWindowMs(), limits.cancelWindowMs(),
                        limits.names(), chunkRequests)).thenAccept(stored -> {
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

    /** Keeps records of messages refused at ingest in the dead-letter store; keyed by message id. */
    public CompletableFuture<Void> storeDeadLetters(Map<String, byte[]> recordsById) {
        Map<Integer, List<Map.Entry<String, byte[]>>> bySlot = new TreeMap<>();
        recordsById.entrySet().forEach(e -> bySlot.computeIfAbsent(keys.slotOf(e.getKey()), s -> new ArrayList<>()).add(e));
        List<CompletableFuture<Long>> calls = new ArrayList<>();
        bySlot.forEach((slot, records) ->
                calls.add(runner.run(StoreDeadLettersScript.call(keys, slot, limits.deadLetterMaxCountPerSlot(keys.slotCount()),
                        limits.deadLetterMaxAgeMs(), limits.deadLetterMaxBytesPerSlot(keys.slotCount()), records))));
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /**
     * Withdraws a pending message so it is never delivered. When the id is not known,
     * {@code recordIfUnknown} records the cancel so that the message is dropped if it arrives later.
     */
    public CompletableFuture<CancelOutcome> cancel(String messageId, boolean recordIfUnknown) {
        return runner.run(CancelScript.call(keys, messageId, limits.cancelWindowMs(), limits.dedupeWindowMs(), recordIfUnknown, limits.names()));
    }

    /** Gives a pending message a new due time; its envelope and attempt count stay. */
    public CompletableFuture<DueTimeChange> changeDueTime(String messageId, DueTime dueTime) {
        return runner.run(ChangeDueTimeScript.call(keys, messageId, dueTime, limits.maxDelayMs()));
    }

    /**
     * Swaps the pending message with the replacement's id for the replacement (payload and due time), keeping its id and
     * slot; an id that is not pending is left as it stands (never stored as a new message).
     */
    public CompletableFuture<Replacement> replace(ScheduleRequest replacement) {
        return runner.run(ReplaceScript.call(keys, replacement, limits.maxDelayMs(), limits.dedupeWindowMs(), limits.cancelWindowMs(),
                limits.names())).thenApply(replaced -> {
                    if (replaced.uninterned()) {
                        namesCap.storedUninterned(1);
                    }
                    return replaced.replacement();
                });
    }

    /**
     * Withdraws every pending message of a group ({@code x-group}), as {@link #cancel} withdraws one (the cancel window
     * applies); messages in flight are counted and left alone. A dry run counts and changes nothing.
     */
    public CompletableFuture<GroupOutcome> cancelGroup(String group, boolean dryRun) {
        return groups.cancel(group, dryRun);
    }

    /** Gives every pending message of a group one new due time; messages in flight are counted and left alone. */
    public CompletableFuture<GroupOutcome> rescheduleGroup(String group, DueTime dueTime, boolean dryRun) {
        return groups.reschedule(group, dueTime, dryRun);
    }
}
