package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Puts messages straight into Redis through the bridge's own {@code IngestStore} (its schedule script,
 * its envelope, its key layout), bypassing Kafka: for scenarios that need many messages already pending.
 * Each message looks like one the bridge took from Kafka: id {@code <topic>-<partition>-<offset>} (or one the
 * producer gave), a Kafka target, origin {@code kafka:delay.inbound/0@<offset>}, no key or headers, a 100-byte body.
 */
final class StoreLoader {

    static final long FAR_FUTURE_MS = 3_600_000;

    /** Benchmark-side re-timing: sets every member of a due set to {@code ARGV[1]}, those starting with ARGV[2] to ARGV[3]. */
    private static final String RETIME = """
            local m = redis.call('ZRANGE', KEYS[1], 0, -1)
            for i = 1, #m do
              if ARGV[2] ~= '' and string.sub(m[i], 1, #ARGV[2]) == ARGV[2] then
                redis.call('ZADD', KEYS[1], ARGV[3], m[i])
              else
                redis.call('ZADD', KEYS[1], ARGV[1], m[i])
              end
            end
            return #m
            """;

    /**
     * Benchmark-side re-timing: moves up to ARGV[3] members of a due set scored ARGV[2] or later ARGV[1] ms earlier; returns
     * how many it moved.
     */
    private static final String MOVE_EARLIER = """
            local m = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[2], '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
            for i = 1, #m, 2 do
              redis.call('ZADD', KEYS[1], tonumber(m[i + 1]) - tonumber(ARGV[1]), m[i])
            end
            return #m / 2
            """;
    /** Members one re-timing call moves at most: about 40 ms of Redis's time, so that a bridge running meanwhile is not held up long. */
    private static final int MOVE_CHUNK = 10_000;

    private StoreLoader() {
    }

    /** A message as the bridge makes it of the Kafka record at {@code offset} of the inbound topic. */
    static Envelope envelope(String messageId, long offset, String targetTopic, byte[] body) {
        return envelopeTo(messageId, offset, "kafka:" + targetTopic, body);
    }

    /** The same, for any target ({@code kafka:<topic>}, {@code rabbitmq:/<queue>}, ...). */
    static Envelope envelopeTo(String messageId, long offset, String target, byte[] body) {
        return new Envelope(messageId, target, "kafka:delay.inbound/0@" + offset, null, List.of(), Map.of(), body);
    }

    /**
     * Stores ids {@code idPrefix + i} for i in [from, from + count), each due as {@code due} says, in
     * pipelined chunks of 2,000. Fails if any is not stored.
     */
    static void load(StoreFaces store, String idPrefix, int from, int count, DueTime due, String targetTopic, byte[] body)
            throws Exception {
        load(store, i -> idPrefix + i, from, count, due, targetTopic, body);
    }

    /** Like {@link #load(StoreFaces, String, int, int, DueTime, String, byte[])}, with ids {@code idOf(i)}; i is also the offset. */
    static void load(StoreFaces store, IntFunction<String> idOf, int from, int count, DueTime due, String targetTopic, byte[] body)
            throws Exception {
        loadTo(store, idOf, from, count, due, "kafka:" + targetTopic, body);
    }

    /** Like {@link #load(StoreFaces, IntFunction, int, int, DueTime, String, byte[])}, to any target. */
    static void loadTo(StoreFaces store, IntFunction<String> idOf, int from, int count, DueTime due, String target, byte[] body)
            throws Exception {
        loadTo(store, idOf, from, count, i -> due, target, body);
    }

    /** Like {@link #loadTo(StoreFaces, IntFunction, int, int, DueTime, String, byte[])}, each message due as {@code dueOf(i)} says. */
    static void loadTo(StoreFaces store, IntFunction<String> idOf, int from, int count, IntFunction<DueTime> dueOf, String target,
                       byte[] body) throws Exception {
        Deque<CompletableFuture<List<ScheduleResult>>> inFlight = new ArrayDeque<>();
        int chunk = 2_000;
        for (int start = from; start < from + count; start += chunk) {
            List<ScheduleRequest> requests = new ArrayList<>(chunk);
            for (int i = start; i < Math.min(from + count, start + chunk); i++) {
                String id = idOf.apply(i);
                requests.add(new ScheduleRequest(id, dueOf.apply(i), envelopeTo(id, i, target, body)));
            }
            inFlight.add(store.ingest().schedule(requests));
            if (inFlight.size() >= 8) {
                check(inFlight.poll());
            }
        }
        while (!inFlight.isEmpty()) {
            check(inFlight.poll());
        }
    }

    /** Like {@link #load(StoreFaces, IntFunction, int, int, DueTime, String, byte[])}, each message with {@code x-group: groupOf(i)}. */
    static void loadGrouped(StoreFaces store, IntFunction<String> idOf, IntFunction<String> groupOf, int from, int count, DueTime due,
                            String targetTopic, byte[] body) throws Exception {
        Deque<CompletableFuture<List<ScheduleResult>>> inFlight = new ArrayDeque<>();
        int chunk = 2_000;
        for (int start = from; start < from + count; start += chunk) {
            List<ScheduleRequest> requests = new ArrayList<>(chunk);
            for (int i = start; i < Math.min(from + count, start + chunk); i++) {
                String id = idOf.apply(i);
                Envelope plain = envelope(id, i, targetTopic, body);
                Envelope grouped = new Envelope(id, plain.target(), plain.origin(), null,
                        List.of(MessageHeader.text(HeaderNames.GROUP, groupOf.apply(i))), Map.of(), body);
                requests.add(new ScheduleRequest(id, due, grouped));
            }
            inFlight.add(store.ingest().schedule(requests));
            if (inFlight.size() >= 8) {
                check(inFlight.poll());
            }
        }
        while (!inFlight.isEmpty()) {
            check(inFlight.poll());
        }
    }

    private static void check(CompletableFuture<List<ScheduleResult>> call) throws Exception {
        for (ScheduleResult result : call.get(60, TimeUnit.SECONDS)) {
            if (result.outcome() != ScheduleResult.Outcome.SCHEDULED) {
                throw new IllegalStateException("a benchmark message was not stored: " + result.outcome());
            }
        }
    }

    /**
     * Moves the pending messages of a key prefix due at {@code from} or later {@code byMs} earlier, keeping their spacing, in
     * calls of {@value #MOVE_CHUNK} per slot: for messages loaded far ahead, then put where a scenario, only now timed, needs
     * them (while a bridge runs). {@code byMs} must exceed the span of those messages, so that none is moved twice.
     */
    static long moveEarlier(RedisClusterCommands<String, String> redis, Keys keys, long from, long byMs) {
        long total = 0;
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            long moved;
            do {
                moved = redis.eval(MOVE_EARLIER, ScriptOutputType.INTEGER, new String[] {keys.due(slot)}, Long.toString(byMs),
                        Long.toString(from), Integer.toString(MOVE_CHUNK));
                total += moved;
            } while (moved == MOVE_CHUNK);
        }
        return total;
    }

    /**
     * Moves every pending message of a key prefix to {@code dueAt} (and those whose id starts with
     * {@code probePrefix} to {@code probeDueAt}), in one script per slot (on a cluster, run by the master owning it).
     */
    static long retime(RedisClusterCommands<String, String> redis, Keys keys, long dueAt, String probePrefix, long probeDueAt) {
        long total = 0;
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            Long moved = redis.eval(RETIME, ScriptOutputType.INTEGER, new String[] {keys.due(slot)},
                    Long.toString(dueAt), probePrefix == null ? "" : probePrefix, Long.toString(probeDueAt));
            total += moved;
        }
        return total;
    }
}
