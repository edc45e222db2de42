package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.CLAIMS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code releaseClaim.lua}: gives back, due at once, what a claimer's round leased in one slot, when the claimer never got
 * the claim's answer. Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ReleaseClaimScript {

    /** {@code Returns: the number of messages given back to the due set}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("releaseClaim", IN_FLIGHT, DUE, CLAIMS);

    private ReleaseClaimScript() {
    }

    /** ARGV: claimer id, round. */
    public static ScriptCall<Long> call(Keys keys, int slot, ClaimTag tag) {
        return CONTRACT.call(keys, slot, Function.identity(), text(tag.claimerId()), text(Long.toString(tag.round())));
    }
}
