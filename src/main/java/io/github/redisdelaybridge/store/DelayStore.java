package io.github.redisdelaybridge.store;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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

    /** Messages per schedule script call: keeps each call well under a millisecond of Redis time. */
    static final int SCHEDULE_CHUNK = 200;

    private final RedisScriptingAsyncCommands<byte[], byte[]> redis;
    private final Keys keys;
    private final StoreLimits limits;
    private final LuaScript schedule = LuaScript.load("schedule");
    private final LuaScript claim = LuaScript.load("claim");
    private final LuaScript acknowledge = LuaScript.load("acknowledge");
    private final LuaScript reschedule = LuaScript.load("reschedule");
    private final LuaScript reapExpiredLeases = LuaScript.load("reapExpiredLeases");
    private final LuaScript deadLetter = LuaScript.load("deadLetter");
    private final LuaScript storeDeadLetters = LuaScript.load("storeDeadLetters");

    public DelayStore(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits) {
        this.redis = redis;
        this.keys = keys;
        this.limits = limits;
    }

    public Keys keys() {
        return keys;
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
            for (int from = 0; from < indexes.size(); from += SCHEDULE_CHUNK) {
                List<Integer> chunk = indexes.subList(from, Math.min(indexes.size(), from + SCHEDULE_CHUNK));
                calls.add(scheduleChunk(slot, chunk, requests, results));
            }
        });
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).thenApply(done -> List.of(results));
    }

    private CompletableFuture<Void> scheduleChunk(int slot, List<Integer> chunk, List<ScheduleRequest> requests, ScheduleResult[] results) {
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.payloads(slot)), bytes(keys.delivered(slot))};
        byte[][] args = new byte[2 + 4 * chunk.size()][];
        args[0] = number(limits.maxDelayMs());
        args[1] = number(limits.dedupeWindowMs());
        int a = 2;
        for (int index : chunk) {
            ScheduleRequest request = requests.get(index);
            args[a++] = bytes(request.messageId());
            if (request.dueTime() instanceof DueTime.AfterDelay delay) {
                args[a++] = bytes("delay");
                args[a++] = number(delay.delayMs());
            } else {
                args[a++] = bytes("at");
                args[a++] = number(((DueTime.At) request.dueTime()).epochMs());
            }
            args[a++] = EnvelopeCodec.encode(request.envelope());
        }
        return schedule.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, args).thenAccept(reply -> {
            for (int i = 0; i < chunk.size(); i++) {
                results[chunk.get(i)] = ScheduleResult.fromScriptCode((Long) reply.get(i));
            }
        });
    }

    /** Claims up to {@code limit} due messages of one slot under a lease of {@code leaseMs}. */
    public CompletableFuture<ClaimedBatch> claim(int slot, int limit, long leaseMs, String leaseToken) {
        byte[][] slotKeys = {bytes(keys.due(slot)), bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)),
                bytes(keys.leases(slot)), bytes(keys.attempts(slot))};
        return claim.<List<Object>>run(redis, ScriptOutputType.MULTI, slotKeys, number(limit), number(leaseMs), bytes(leaseToken))
                .thenApply(reply -> {
                    List<ClaimedMessage> messages = new ArrayList<>((reply.size() - 2) / 4);
                    for (int i = 2; i < reply.size(); i += 4) {
                        messages.add(new ClaimedMessage(slot, text((byte[]) reply.get(i)), (Long) reply.get(i + 1),
                                ((Long) reply.get(i + 2)).intValue(), (byte[]) reply.get(i + 3), leaseToken));
                    }
                    return new ClaimedBatch((Long) reply.get(0), (Long) reply.get(1), messages);
                });
    }

    /** Deletes delivered messages of one slot; returns how many still held the caller's lease. */
    public CompletableFuture<Long> acknowledge(int slot, List<ClaimedMessage> delivered) {
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)), bytes(keys.leases(slot)),
                bytes(keys.attempts(slot)), bytes(keys.delivered(slot))};
        byte[][] args = new byte[1 + 2 * delivered.size()][];
        args[0] = number(limits.dedupeWindowMs());
        int a = 1;
        for (ClaimedMessage message : delivered) {
            args[a++] = bytes(message.messageId());
            args[a++] = bytes(message.leaseToken());
        }
        return acknowledge.run(redis, ScriptOutputType.INTEGER, slotKeys, args);
    }

    /**
     * Gives a claimed message back to the due set, due {@code delayMs} from now.
     * Returns its attempt count afterwards, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> reschedule(ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        int slot = message.slot();
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.due(slot)), bytes(keys.leases(slot)), bytes(keys.attempts(slot))};
        return reschedule.run(redis, ScriptOutputType.INTEGER, slotKeys,
                bytes(message.messageId()), bytes(message.leaseToken()), number(delayMs), bytes(countAsFailedAttempt ? "1" : "0"));
    }

    /** Returns up to {@code limit} messages of one slot whose lease expired to the due set. */
    public CompletableFuture<Long> reapExpiredLeases(int slot, int limit) {
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.due(slot)), bytes(keys.leases(slot)), bytes(keys.attempts(slot))};
        return reapExpiredLeases.run(redis, ScriptOutputType.INTEGER, slotKeys, number(limit));
    }

    /**
     * Moves a claimed message into the dead-letter store (after the dead-letter channel has it).
     * Returns 1, or -1 if this instance no longer held its lease.
     */
    public CompletableFuture<Long> deadLetter(ClaimedMessage message, byte[] record) {
        int slot = message.slot();
        byte[][] slotKeys = {bytes(keys.inFlight(slot)), bytes(keys.payloads(slot)), bytes(keys.leases(slot)),
                bytes(keys.attempts(slot)), bytes(keys.deadLetters(slot)), bytes(keys.deadLetterIndex(slot))};
        return deadLetter.run(redis, ScriptOutputType.INTEGER, slotKeys, bytes(message.messageId()), bytes(message.leaseToken()),
                record, number(deadLettersPerSlot()), number(limits.deadLetterMaxAgeMs()));
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

    private long deadLettersPerSlot() {
        return Math.max(1, limits.deadLetterMaxCount() / keys.slotCount());
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
