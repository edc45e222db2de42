package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code countPending.lua}: how many of one slot's pending messages fall due in a range, and how many of those match a
 * target glob, exactly or from a sample. Its Lua header is the contract; this class is its Java side
 * ({@link ScriptContract}).
 */
public final class CountPendingScript {

    /** {@code Returns: { inRange, examined, matching }}. */
    enum Head { IN_RANGE, EXAMINED, MATCHING }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "countPending", DUE, PAYLOADS, NAMES);

    private CountPendingScript() {
    }

    /** ARGV: the filter's due range and target glob, and read the target of at most {@code sampleSize} messages. */
    public static ScriptCall<PendingTotals> call(Keys keys, int slot, PendingFilter filter, int sampleSize) {
        return CONTRACT.call(keys, slot, CountPendingScript::totalsOf,
                filter.dueAfter() == null ? text("-inf") : number(filter.dueAfter()),
                filter.dueBefore() == null ? text("+inf") : number(filter.dueBefore()),
                text(filter.target() == null ? "" : filter.target()), number(sampleSize));
    }

    private static PendingTotals totalsOf(Reply<Head, Reply.None> reply) {
        return PendingTotals.ofSlot(reply.number(Head.IN_RANGE), reply.number(Head.EXAMINED), reply.number(Head.MATCHING));
    }
}
