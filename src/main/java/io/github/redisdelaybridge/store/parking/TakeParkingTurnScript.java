package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code takeParkingTurn.lua}: takes or keeps the turn to do the parked targets' work. Its Lua header is the contract;
 * this class is its Java side ({@link ScriptContract}).
 */
public final class TakeParkingTurnScript {

    /** {@code Returns: { held }}. */
    enum Head { HELD }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returningOnOwnKey(Reply.shape(Head.class), "takeParkingTurn", "parking turn");

    private TakeParkingTurnScript() {
    }

    /** ARGV: the caller's id, how long the turn lasts unless renewed. */
    public static ScriptCall<Boolean> call(Keys keys, String callerId, long ttlMs) {
        return CONTRACT.callOnKey(keys.parkingTurn(), reply -> reply.number(Head.HELD) == 1, text(callerId), number(ttlMs));
    }
}
