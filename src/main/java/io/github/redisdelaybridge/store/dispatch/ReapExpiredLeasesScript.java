package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.LEASE_CLAIMERS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code reapExpiredLeases.lua}: returns messages of one slot whose lease deadline has passed to the due set. Its Lua
 * header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ReapExpiredLeasesScript {

    /** {@code Returns: the number of messages returned to the due set}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("reapExpiredLeases", IN_FLIGHT, DUE, ATTEMPTS,
            LEASE_CLAIMERS);

    private ReapExpiredLeasesScript() {
    }

    /** ARGV: the most leases to reap in this call. */
    public static ScriptCall<Long> call(Keys keys, int slot, int limit) {
        return CONTRACT.call(keys, slot, Function.identity(), number(limit));
    }
}
