package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKING_EXEMPTIONS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code takeParkedOut.lua}: makes a parked target's oldest messages of one slot due at once, exempt from parking for one
 * claim (a probe, an expiry). Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class TakeParkedOutScript {

    /** {@code Returns: { takenOut, left }}. */
    enum Head { TAKEN_OUT, LEFT }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "takeParkedOut", DUE, PARKED_INDEX_PREFIX, PARKING_EXEMPTIONS, ORIGINAL_DUE);

    private TakeParkedOutScript() {
    }

    /** ARGV: the target, at most this many messages, only those due before this time (epoch ms; null: any). */
    public static ScriptCall<ParkedMoved> call(Keys keys, int slot, String target, int max, Long dueBefore) {
        return CONTRACT.call(keys, slot, reply -> new ParkedMoved(reply.number(Head.TAKEN_OUT), reply.number(Head.LEFT)), text(target),
                number(max), text(dueBefore == null ? "+inf" : Long.toString(dueBefore)));
    }
}
