package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.Argv.number;
import static io.github.redisdelaybridge.store.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.SlotKey.DUE;
import static io.github.redisdelaybridge.store.SlotKey.IN_FLIGHT;

import java.util.function.Function;

/**
 * {@code reapExpiredLeases.lua}: returns messages of one slot whose lease deadline has passed to the due set. Its Lua
 * header is the contract; this class is its Java side ({@link ScriptContract}).
 */
final class ReapExpiredLeasesScript {

    /** {@code Returns: the number of messages returned to the due set}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("reapExpiredLeases", IN_FLIGHT, DUE, ATTEMPTS);

    private ReapExpiredLeasesScript() {
    }

    /** ARGV: the most leases to reap in this call. */
    static ScriptCall<Long> call(Keys keys, int slot, int limit) {
        return CONTRACT.call(keys, slot, Function.identity(), number(limit));
    }
}
