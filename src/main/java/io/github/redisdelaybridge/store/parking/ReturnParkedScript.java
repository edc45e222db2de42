package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_INDEX_PREFIX;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code returnParked.lua}: returns a target's parked messages of one slot to the due set, at their due times, in due
 * order. Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ReturnParkedScript {

    /** {@code Returns: { returned, left }}. */
    enum Head { RETURNED, LEFT }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "returnParked", DUE, PARKED_INDEX_PREFIX);

    private ReturnParkedScript() {
    }

    /** ARGV: the target, at most this many index entries. */
    public static ScriptCall<ParkedMoved> call(Keys keys, int slot, String target, int max) {
        return CONTRACT.call(keys, slot, reply -> new ParkedMoved(reply.number(Head.RETURNED), reply.number(Head.LEFT)), text(target), number(max));
    }
}
