package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code gauges.lua}: what one slot holds for the cluster-wide gauges. Its Lua header is the contract; this class is its
 * Java side ({@link ScriptContract}).
 */
public final class GaugesScript {

    /** {@code Returns: { now, pending, inFlight, overdue, oldestDue, dead, dueSoonMinute, dueSoonTenMinutes, dueSoonHour }}. */
    enum Head { NOW, PENDING, IN_FLIGHT, OVERDUE, OLDEST_DUE, DEAD, DUE_SOON_MINUTE, DUE_SOON_TEN_MINUTES, DUE_SOON_HOUR }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "gauges", DUE, IN_FLIGHT, DEAD_LETTERS);

    private GaugesScript() {
    }

    /** ARGV: overdue threshold in ms, then the three due-soon windows of {@link StoreGauges#DUE_SOON_WINDOWS_MS}. */
    public static ScriptCall<StoreGauges> call(Keys keys, int slot, long overdueThresholdMs) {
        long[] windows = StoreGauges.DUE_SOON_WINDOWS_MS;
        return CONTRACT.call(keys, slot, GaugesScript::gaugesOf, number(overdueThresholdMs), number(windows[0]), number(windows[1]),
                number(windows[2]));
    }

    private static StoreGauges gaugesOf(Reply<Head, Reply.None> reply) {
        return new StoreGauges(reply.number(Head.NOW), reply.number(Head.PENDING), reply.number(Head.IN_FLIGHT), reply.number(Head.OVERDUE),
                reply.number(Head.OLDEST_DUE), reply.number(Head.DEAD),
                new long[] {reply.number(Head.DUE_SOON_MINUTE), reply.number(Head.DUE_SOON_TEN_MINUTES), reply.number(Head.DUE_SOON_HOUR)});
    }
}
