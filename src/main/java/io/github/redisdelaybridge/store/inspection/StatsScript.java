package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code stats.lua}: how many messages of one slot are in each state, and when the next falls due. Its Lua header is
 * the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class StatsScript {

    /** {@code Returns: { now, pending, inFlight, delivered, cancelled, dead, nextDue, parked }}. */
    enum Head { NOW, PENDING, IN_FLIGHT, DELIVERED, CANCELLED, DEAD, NEXT_DUE, PARKED }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "stats", DUE, IN_FLIGHT, DELIVERED, CANCELLED, DEAD_LETTERS);

    private StatsScript() {
    }

    /** ARGV: dedupe window in ms, cancel window in ms. The stats of one slot. */
    public static ScriptCall<StoreStats> call(Keys keys, int slot, long dedupeWindowMs, long cancelWindowMs) {
        return CONTRACT.call(keys, slot, StatsScript::statsOf, number(dedupeWindowMs), number(cancelWindowMs));
    }

    private static StoreStats statsOf(Reply<Head, Reply.None> reply) {
        return new StoreStats(reply.number(Head.NOW), reply.number(Head.PENDING), reply.number(Head.IN_FLIGHT), reply.number(Head.DELIVERED),
                reply.number(Head.CANCELLED), reply.number(Head.DEAD), reply.number(Head.NEXT_DUE), reply.number(Head.PARKED));
    }
}
