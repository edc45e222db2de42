package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code dueHistogram.lua}: how many of one slot's pending messages fall due in each coming period. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class DueHistogramScript {

    /** {@code Returns: { now, overdue, later, count1, count2, ... }}. */
    enum Head { NOW, OVERDUE, LATER }

    enum Entry { COUNT }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "dueHistogram", DUE);

    private DueHistogramScript() {
    }

    /** ARGV: bucket width in ms, number of buckets. The histogram of one slot. */
    public static ScriptCall<DueHistogram> call(Keys keys, int slot, long bucketMs, int buckets) {
        return CONTRACT.call(keys, slot, DueHistogramScript::histogramOf, number(bucketMs), number(buckets));
    }

    private static DueHistogram histogramOf(Reply<Head, Entry> reply) {
        long[] counts = new long[reply.entries()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = reply.number(i, Entry.COUNT);
        }
        return new DueHistogram(reply.number(Head.NOW), reply.number(Head.OVERDUE), reply.number(Head.LATER), counts);
    }
}
