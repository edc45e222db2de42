package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.List;
import java.util.function.Function;

/**
 * {@code deferClaimed.lua}: gives claimed messages of one slot back to the due set, each due after a delay of its own,
 * keeping their original due times. Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class DeferClaimedScript {

    /** {@code Returns: the number of messages given back}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("deferClaimed", IN_FLIGHT, DUE, ORIGINAL_DUE);

    /** A claimed message to give back, due {@code delayMs} after Redis's clock. */
    public record Deferral(ClaimedMessage message, long delayMs) {
    }

    private DeferClaimedScript() {
    }

    /** ARGV: quadruples of member, lease token, delay from now in ms, original due time; all of {@code slot}. */
    public static ScriptCall<Long> call(Keys keys, int slot, List<Deferral> deferrals) {
        byte[][] args = new byte[deferrals.size() * 4][];
        int i = 0;
        for (Deferral deferral : deferrals) {
            ClaimedMessage message = deferral.message();
            if (message.slot() != slot) {
                throw new IllegalArgumentException("message " + message.messageId() + " is of slot " + message.slot() + ", not " + slot);
            }
            args[i++] = message.member();
            args[i++] = number(message.leaseDeadline());
            args[i++] = number(Math.max(0, deferral.delayMs()));
            args[i++] = number(message.originalDueAt());
        }
        return CONTRACT.call(keys, slot, Function.identity(), args);
    }
}
