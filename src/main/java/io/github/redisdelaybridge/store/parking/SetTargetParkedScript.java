package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_TARGETS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code setTargetParked.lua}: adds a target to one slot's parked targets, or takes it out. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class SetTargetParkedScript {

    /** {@code Returns: 1 when the set changed, 0 when it already was so}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("setTargetParked", PARKED_TARGETS);

    private SetTargetParkedScript() {
    }

    /** ARGV: the target, 1 to park its messages or 0 to stop. */
    public static ScriptCall<Long> call(Keys keys, int slot, String target, boolean parked) {
        return CONTRACT.call(keys, slot, Function.identity(), text(target), flag(parked));
    }
}
