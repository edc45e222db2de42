package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code reschedule.lua}: gives a claimed message back to the due set, if the caller still holds its lease. Its Lua
 * header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class RescheduleScript {

    /** {@code Returns: the attempt count after this call, or -1 if the lease did not match}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("reschedule", IN_FLIGHT, DUE, ATTEMPTS, ORIGINAL_DUE);

    private RescheduleScript() {
    }

    /** ARGV: message member, lease token, delay from now in ms, 1 to count a failed attempt (0 not to), its original due time. */
    public static ScriptCall<Long> call(Keys keys, ClaimedMessage message, long delayMs, boolean countAsFailedAttempt) {
        return CONTRACT.call(keys, message.slot(), Function.identity(),
                message.member(), number(message.leaseDeadline()), number(delayMs), flag(countAsFailedAttempt), number(message.originalDueAt()));
    }
}
