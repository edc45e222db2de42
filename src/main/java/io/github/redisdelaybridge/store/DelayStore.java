package io.github.redisdelaybridge.store;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Every operation on delayed messages in Redis, one Lua script each (see {@code src/main/resources/lua}).
 * Calls are asynchronous: Lettuce pipelines concurrent calls on one connection, so a batch split over
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
    static final int MESSAGES_PER_CALL = 100;
    /** Entries a list script examines per slot and call at most, however few match its filter. */
    static final int LIST_SCAN_BUDGET = 1_000;
    /** How the id of a packed member Redis could not resolve is shown (claim, listPending): then the member in hex. */
    public static final String UNRESOLVABLE_ID_PREFIX = "unresolvable-member:";

    private final RedisScriptingAsyncCommands<byte[], byte[]> redis;
    private final Keys keys;
    private final StoreLimits limits;
    private final LuaScript schedule = LuaScript.load("schedule");
    private final LuaScript claim = LuaScript.load("claim");
    private final LuaScript releaseClaim = LuaScript.load("releaseClaim");
    private final LuaScript acknowledge = LuaScript.load("acknowledge");
    private final LuaScript reschedule = LuaScript.load("reschedule");
    private final LuaScript recordFailure = LuaScript.load("recordFailure");
    private final LuaScript reapExpiredLeases = LuaScript.load("reapExpiredLeases");
    private final LuaScript deadLetter = LuaScript.load("deadLetter");
    private final LuaScript storeDeadLetters = LuaScript.load("storeDeadLetters");
    private final LuaScript cancel = LuaScript.load("cancel");
    private final LuaScript changeDueTime = LuaScript.load("changeDueTime");
    private final LuaScript inspect = LuaScript.load("inspect");
    private final LuaScript listPending = LuaScript.load("listPending");
    private final LuaScript listDeadLetters = LuaScript.load("listDeadLetters");
    private final LuaScript replayDeadLetter = LuaScript.load("replayDeadLetter");
    private final LuaScript deleteDeadLetter = LuaScript.load("deleteDeadLetter");
    private final LuaScript stats = LuaScript.load("stats");

    public DelayStore(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
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
                calls.add(scheduleChunk(slot, chunk, requests, results));
            }
        });
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(done -> List.of(results));
    }

    private CompletableFuture<Void> scheduleChunk(int slot, List<Integer> chunk, List<ScheduleRequest> requests, ScheduleResult[] results) {
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.payloads(slot)), bytes(keys.delivered(slot)), bytes(keys.cancelled(slot)),
                bytes(keys.names(slot))};
        byte[][] args = new byte[3 + 4 * chunk.size()][];
        args[0] = number(limits.maxDelayMs());
        args[1] = number(limits.dedupeWindowMs());
        args[2] = number(limits.cancelWindowMs());
        int a = 3;
        for (int index : chunk) {
            ScheduleRequest request = requests.get(index);
            args[a++] = bytes(request.messageId());
            args[a++] = dueMode(request.dueTime());
            args[a++] = dueValue(request.dueTime());
            args[a++] = EnvelopeCodec.encode(request.envelope());
        }
        return schedule.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, args).thenAccept(reply -> {
            for (int i = 0; i < chunk.size(); i++) {
                results[chunk.get(i)] = ScheduleResult.fromScriptCode((Long) reply.get(i));
            }
        });
    }

    /**
     * Claims up to {@code limit} due messages of one slot under a lease of {@code leaseMs} (at least 1: a later
     * claim of the same message must get a later lease deadline, see claim.lua).
     */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs) {
        return claim(slot, limit, leaseMs, null);
    }

    /**
     * As {@link #claim(int, int, long)}, and records what this round claimed in the slot under {@code tag} (null: nothing
     * recorded), so that {@link #releaseClaim} can give it back if the answer never arrives.
     */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs, ClaimTag tag) {
        if (leaseMs < 1) {
            throw new IllegalArgumentException("a lease lasts at least 1 ms, got " + leaseMs);
        }
        if (limit <= MESSAGES_PER_CALL) {
            return claimChunk(slot, limit, leaseMs, tag);
        }
        List<CompletableFuture<ClaimedBatch>> chunks = new ArrayList<>();
        for (int remaining = limit; remaining > 0; remaining -= MESSAGES_PER_CALL) {
            chunks.add(claimChunk(slot, Math.min(remaining, MESSAGES_PER_CALL), leaseMs, tag));
        }
        return CompletableFuture.allOf(chunks.toArray(CompletableFuture[]::new)).thenApply(done -> {
            List<ClaimedMessage> messages = new ArrayList<>();
            chunks.forEach(chunk -> messages.addAll(chunk.join().messages()));
            // the last call ran last: its clock is the latest and its next due time is what is still waiting
            ClaimedBatch last = chunks.get(chunks.size() - 1).join();
            return new ClaimedBatch(last.redisNow(), last.nextDue(), messages);
        });
    }

    private CompletableFuture<ClaimedBatch> claimChunk(int slot, int limit, long leaseMs, ClaimTag tag) {
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)),
                bytes(keys.attempts(slot)), bytes(keys.names(slot)), bytes(keys.claimRecord(slot, tag == null ? "-" : tag.claimerId()))};
        return claim.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, number(limit), number(leaseMs),
                bytes(tag == null ? "" : Long.toString(tag.round())))
                .thenApply(reply -> {
                    long leaseDeadline = (Long) reply.get(2);
                    List<ClaimedMessage> messages = new ArrayList<>((reply.size() - 3) / 5);
                    for (int i = 3; i < reply.size(); i += 5) {
                        byte[] id = (byte[]) reply.get(i);
                        byte[] member = (byte[]) reply.get(i + 1);
                        messages.add(new ClaimedMessage(slot, id == null ? unresolvableId(slot, member) : text(id), member, id != null,
                                (Long) reply.get(i + 2), ((Long) reply.get(i + 3)).intValue(), (byte[]) reply.get(i + 4), leaseDeadline));
                    }
                    return new ClaimedBatch((Long) reply.get(0), (Long) reply.get(1), messages);
                });
    }

    /**
     * The stand-in id of a packed member whose stem code the slot's names hash lacks: {@code unresolvable-member:} and
     * the member in hex, then {@code ~<n>} with the smallest n that puts the stand-in into the member's slot, when it
     * is not there already. The message is dead-lettered under this id, into its own slot's store, so the id must
     * map to that slot for the admin API to find the dead letter again ({@link Keys#slotOf}: computed from the id).
     */
    String unresolvableId(int slot, byte[] member) {
        String plain = UNRESOLVABLE_ID_PREFIX + HexFormat.of().formatHex(member);
        String id = plain;
        for (int n = 1; keys.slotOf(id) != slot && n <= 1_000_000; n++) {
            id = plain + "~" + n;
        }
        return id;
    }

    /**
     * Gives back, due now and without counting an attempt, what the round {@code tag} claimed in a slot and still holds there;
     * for a round whose claim answer never arrived (it may or may not have run). Returns how many messages it gave back.
     */
    public CompletableFuture<Long> releaseClaim(int slot, ClaimTag tag) {
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.due(slot)), bytes(keys.claimRecord(slot, tag.claimerId()))};
        return releaseClaim.run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(Long.toString(tag.round())));
    }

    /** Deletes delivered messages of one slot; returns how many still held the caller's lease. */
    public CompletableFuture<Long> acknowledge(int slot, List<ClaimedMessage> delivered) {
        if (delivered.size() <= MESSAGES_PER_CALL) {
            return acknowledgeChunk(slot, delivered);
        }
        CompletableFuture<Long> total = CompletableFuture.completedFuture(0L);
        for (int from = 0; from < delivered.size(); from += MESSAGES_PER_CALL) {
            CompletableFuture<Long> chunk = acknowledgeChunk(slot, delivered.subList(from, Math.min(delivered.size(), from + MESSAGES_PER_CALL)));
            total = total.thenCombine(chunk, Long::sum);
        }
        return total;
    }

    private CompletableFuture<Long> acknowledgeChunk(int slot, List<ClaimedMessage> delivered) {
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)), bytes(keys.attempts(slot)),
                bytes(keys.delivered(slot)), bytes(keys.failingSince(slot))};
        byte[][] args = new byte[1 + 2 * delivered.size()][];
        args[0] = number(limits.dedupeWindowMs());
        int a = 1;
        for (ClaimedMessage message : delivered) {
            args[a++] = message.member();
            args[a++] = number(message.leaseDeadline());
        }
        return acknowledge.run(redis, ScriptOutputType.INTEGER, slotKeys, args);
    }

    /**
     * Gives a claimed message back to the due set, due {@code delayMs} from now.
     * Returns its attempt count afterwards, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> reschedule(ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        int slot = message.slot();
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.due(slot)), bytes(keys.attempts(slot))};
        return reschedule.run(redis, ScriptOutputType.INTEGER, slotKeys,
                message.member(), number(message.leaseDeadline()), number(delayMs), bytes(countAsFailedAttempt ? "1" : "0"));
    }

    /**
     * Counts a failed publish of a claimed message and returns how long it has been failing (its first failure is remembered
     * until the message is delivered, dead-lettered or cancelled); the message stays in flight. {@link RecordedFailure#leaseLost()}
     * when this instance no longer held its lease (nothing changed).
     */
    public CompletableFuture<RecordedFailure> recordFailure(ClaimedMessage message) {
        int slot = message.slot();
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.attempts(slot)), bytes(keys.failingSince(slot))};
        return recordFailure.<List<Long>>run(redis, ScriptOutputType.MULTI, slotKeys, message.member(), number(message.leaseDeadline()))
                .thenApply(reply -> reply.get(0) < 0 ? RecordedFailure.LEASE_LOST
                        : new RecordedFailure(reply.get(0).intValue(), reply.get(1), reply.get(2)));
    }

    /** Returns up to {@code limit} messages of one slot whose lease expired to the due set. */
    public CompletableFuture<Long> reapExpiredLeases(int slot, int limit) {
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.due(slot)), bytes(keys.attempts(slot))};
        return reapExpiredLeases.run(redis, ScriptOutputType.INTEGER, slotKeys, number(limit));
    }

    /**
     * Moves a claimed message into the dead-letter store (after the dead-letter channel has it), keyed by its id
     * (or its stand-in id). Returns 1, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> deadLetter(ClaimedMessage message, byte[] record) {
        int slot = message.slot();
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)), bytes(keys.attempts(slot)),
                bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot)), bytes(keys.failingSince(slot))};
        return deadLetter.run(redis, ScriptOutputType.INTEGER, slotKeys, message.member(), number(message.leaseDeadline()),
                record, number(deadLettersPerSlot()), number(limits.deadLetterMaxAgeMs()), bytes(message.messageId()));
    }

    /** Keeps records of messages refused at ingest in the dead-letter store; keyed by message id. */
    public CompletableFuture<Void> storeDeadLetters(Map<String, byte[]> recordsById) {
        Map<Integer, List<Map.Entry<String, byte[]>>> bySlot = new TreeMap<>();
        recordsById.entrySet().forEach(e -> bySlot.computeIfAbsent(keys.slotOf(e.getKey()), s -> new ArrayList<>()).add(e));
        List<CompletableFuture<Long>> calls = new ArrayList<>();
        bySlot.forEach((slot, records) -> {
            byte[][] args = new byte[2 + 2 * records.size()][];
            args[0] = number(deadLettersPerSlot());
            args[1] = number(limits.deadLetterMaxAgeMs());
            int a = 2;
            for (Map.Entry<String, byte[]> record : records) {
                args[a++] = bytes(record.getKey());
                args[a++] = record.getValue();
            }
            calls.add(storeDeadLetters.run(redis, ScriptOutputType.INTEGER,
                    new byte[][] {bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot))}, args));
        });
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /**
     * Withdraws a pending message so it is never delivered. When the id is not known,
     * {@code recordIfUnknown} records the cancel so that the message is dropped if it arrives later.
     */
    public CompletableFuture<CancelOutcome> cancel(String messageId, boolean recordIfUnknown) {
        int slot = keys.slotOf(messageId);
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.payloads(slot)), bytes(keys.inFlight(slot)), bytes(keys.attempts(slot)),
                bytes(keys.cancelled(slot)), bytes(keys.delivered(slot)), bytes(keys.deadLetters(slot)), bytes(keys.names(slot)),
                bytes(keys.failingSince(slot))};
        return cancel.<Long>run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(messageId), number(limits.cancelWindowMs()),
                number(limits.dedupeWindowMs()), bytes(recordIfUnknown ? "1" : "0")).thenApply(CancelOutcome::fromScriptCode);
    }

    /** Gives a pending message a new due time; its envelope and attempt count stay. */
    public CompletableFuture<DueTimeChange> changeDueTime(String messageId, DueTime dueTime) {
        int slot = keys.slotOf(messageId);
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.inFlight(slot)), bytes(keys.names(slot))};
        return changeDueTime.<Long>run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(messageId), dueMode(dueTime), dueValue(dueTime),
                number(limits.maxDelayMs())).thenApply(DueTimeChange::fromScriptCode);
    }

    /** Everything Redis knows about one id, read in one step. */
    public CompletableFuture<MessageFacts> inspect(String messageId) {
        int slot = keys.slotOf(messageId);
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)), bytes(keys.attempts(slot)),
                bytes(keys.delivered(slot)), bytes(keys.cancelled(slot)), bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot)),
                bytes(keys.names(slot))};
        return inspect.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, bytes(messageId), number(limits.dedupeWindowMs()),
                number(limits.cancelWindowMs())).thenApply(r -> new MessageFacts(messageId, (Long) r.get(0), (Long) r.get(1),
                (Long) r.get(2), ((Long) r.get(3)).intValue(), (byte[]) r.get(4), (Long) r.get(5), (Long) r.get(6), (Long) r.get(7),
                (byte[]) r.get(8), (Long) r.get(9)));
    }

    /**
     * A page of pending messages over all slots, in due order (then member order: {@link ListPosition}), starting after
     * {@code after} (null: from the first). {@code dueBefore} (exclusive) and {@code target} narrow it; null for no bound.
     */
    public CompletableFuture<Listing<PendingEntry>> listPending(ListPosition after, Long dueBefore, String target, int limit) {
        List<CompletableFuture<SlotPage<PendingEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            int listed = slot;
            byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.payloads(slot)), bytes(keys.attempts(slot)), bytes(keys.names(slot))};
            pages.add(listPending.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, afterScore(after), afterMember(after),
                    dueBefore == null ? bytes("+inf") : number(dueBefore), number(limit), bytes(target == null ? "" : target),
                    number(LIST_SCAN_BUDGET), bytes(after != null && after.includesMemberIn(slot) ? "1" : "0"))
                    .thenApply(reply -> SlotPage.of(reply, listed, 6, (r, i) -> {
                        byte[] id = (byte[]) r.get(i);
                        byte[] member = (byte[]) r.get(i + 5);
                        long due = (Long) r.get(i + 1);
                        return new PendingEntry(id == null ? unresolvableId(listed, member) : text(id), due, ((Long) r.get(i + 2)).intValue(),
                                (Long) r.get(i + 3), text((byte[]) r.get(i + 4)), new ListPosition(due, member, listed));
                    })));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /** A page of dead letters over all slots, oldest first, starting after {@code after} (null: from the oldest). */
    public CompletableFuture<Listing<DeadLetterEntry>> listDeadLetters(ListPosition after, String reason, int limit) {
        List<CompletableFuture<SlotPage<DeadLetterEntry>>> pages = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            int listed = slot;
            byte[][] slotKeys = {bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot))};
            pages.add(listDeadLetters.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, afterScore(after), afterMember(after),
                    number(limit), bytes(reason == null ? "" : reason), number(LIST_SCAN_BUDGET))
                    .thenApply(reply -> SlotPage.of(reply, listed, 6, (r, i) -> new DeadLetterEntry(text((byte[]) r.get(i)), (Long) r.get(i + 1),
                            (Long) r.get(i + 2), text((byte[]) r.get(i + 3)), ((Long) r.get(i + 4)).intValue(), text((byte[]) r.get(i + 5)),
                            listed))));
        }
        return SlotPage.mergeWhenDone(pages, limit);
    }

    /**
     * Schedules a dead letter again and removes it from the dead-letter store, in one step, provided the
     * stored record is still {@code recordRead}. The replayed id's delivered and cancel records are cleared.
     */
    public CompletableFuture<ReplayResult> replayDeadLetter(byte[] recordRead, ScheduleRequest request) {
        int slot = keys.slotOf(request.messageId());
        byte[][] slotKeys = {bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot)), bytes(keys.due(slot)),
                bytes(keys.payloads(slot)), bytes(keys.delivered(slot)), bytes(keys.cancelled(slot)), bytes(keys.names(slot))};
        return replayDeadLetter.<Long>run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(request.messageId()), bytes(sha1Hex(recordRead)),
                number(limits.maxDelayMs()), dueMode(request.dueTime()), dueValue(request.dueTime()), EnvelopeCodec.encode(request.envelope()))
                .thenApply(ReplayResult::fromScriptCode);
    }

    /** Forgets a dead letter; true if there was one. */
    public CompletableFuture<Boolean> deleteDeadLetter(String messageId) {
        int slot = keys.slotOf(messageId);
        byte[][] slotKeys = {bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot))};
        return deleteDeadLetter.<Long>run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(messageId)).thenApply(deleted -> deleted == 1);
    }

    /** Counts by state over all slots, and the earliest due time. */
    public CompletableFuture<StoreStats> stats() {
        List<CompletableFuture<List<Object>>> calls = new ArrayList<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.inFlight(slot)), bytes(keys.delivered(slot)), bytes(keys.cancelled(slot)),
                    bytes(keys.deadLetters(slot))};
            calls.add(stats.run(redis, ScriptOutputType.MULTI, slotKeys, number(limits.dedupeWindowMs()), number(limits.cancelWindowMs())));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(done -> {
            long[] sums = new long[7];
            long nextDue = -1;
            for (CompletableFuture<List<Object>> call : calls) {
                List<Object> reply = call.join();
                sums[0] = Math.max(sums[0], (Long) reply.get(0));
                for (int i = 1; i <= 5; i++) {
                    sums[i] += (Long) reply.get(i);
                }
                long slotNextDue = (Long) reply.get(6);
                if (slotNextDue >= 0 && (nextDue < 0 || slotNextDue < nextDue)) {
                    nextDue = slotNextDue;
                }
            }
            return new StoreStats(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], nextDue);
        });
    }

    private long deadLettersPerSlot() {
        return Math.max(1, limits.deadLetterMaxCount() / keys.slotCount());
    }

    private static byte[] dueMode(DueTime dueTime) {
        return bytes(dueTime instanceof DueTime.AfterDelay ? "delay" : "at");
    }

    private static byte[] dueValue(DueTime dueTime) {
        return number(dueTime instanceof DueTime.AfterDelay delay ? delay.delayMs() : ((DueTime.At) dueTime).epochMs());
    }

    private static byte[] afterScore(ListPosition after) {
        return after == null ? bytes("-inf") : number(after.score());
    }

    private static byte[] afterMember(ListPosition after) {
        return after == null ? new byte[0] : after.member();
    }

    private static String sha1Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] number(long value) {
        return Long.toString(value).getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
