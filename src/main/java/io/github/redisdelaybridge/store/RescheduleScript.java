package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.Argv.flag;
import static io.github.redisdelaybridge.store.Argv.number;
import static io.github.redisdelaybridge.store.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.SlotKey.DUE;
import static io.github.redisdelaybridge.store.SlotKey.IN_FLIGHT;

import java.util.function.Function;

/**
 * {@code reschedule.lua}: gives a claimed message back to the due set, if the caller still holds its lease. Its Lua
 * header is the contract; this class is its Java side ({@link ScriptContract}).
 */
final class RescheduleScript {

    /** {@code Returns: the attempt count after this call, or -1 if the lease did not match}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("reschedule", IN_FLIGHT, DUE, ATTEMPTS);

    private RescheduleScript() {
    }

    /** ARGV: message member, lease token, delay from now in ms, 1 to count a failed attempt (0 not to). */
    static ScriptCall<Long> call(Keys keys, ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        return CONTRACT.call(keys, message.slot(), Function.identity(),
                message.member(), number(message.leaseDeadline()), number(delayMs), flag(countAsFailedAttempt));
    }
}
