package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.LEASE_CLAIMERS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code takeBackLeases.lua}: gives back, due at once, what earlier processes of this instance id still lease in one slot.
 * Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class TakeBackLeasesScript {

    /** {@code Returns: the number of messages given back to the due set}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("takeBackLeases", IN_FLIGHT, DUE, LEASE_CLAIMERS);

    private TakeBackLeasesScript() {
    }

    /** ARGV: instance id, the caller's claimer id, when the caller took the instance id (epoch ms, Redis's clock). */
    public static ScriptCall<Long> call(Keys keys, int slot, String instanceId, String ownClaimerId, long tookIdAt) {
        return CONTRACT.call(keys, slot, Function.identity(), text(instanceId), text(ownClaimerId), number(tookIdAt));
    }
}
