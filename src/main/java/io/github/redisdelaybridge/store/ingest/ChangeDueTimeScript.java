package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.dueMode;
import static io.github.redisdelaybridge.store.script.Argv.dueValue;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ingest.DueTimeChange.Outcome;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code changeDueTime.lua}: gives a pending message a new due time. Its Lua header is the contract; this class is
 * its Java side ({@link ScriptContract}).
 */
public final class ChangeDueTimeScript {

    /** {@code Returns: the new due time (epoch ms, >= 0)}, or one of the negative codes below. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("changeDueTime", DUE, IN_FLIGHT, NAMES,
            PAYLOADS, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private ChangeDueTimeScript() {
    }

    /** ARGV: message id, due mode, due value, maximum delay in ms. */
    public static ScriptCall<DueTimeChange> call(Keys keys, String messageId, DueTime dueTime, long maxDelayMs) {
        return CONTRACT.call(keys, keys.slotOf(messageId), ChangeDueTimeScript::changeOf,
                text(messageId), dueMode(dueTime), dueValue(dueTime), number(maxDelayMs));
    }

    static DueTimeChange changeOf(long code) {
        if (code >= 0) {
            return new DueTimeChange(Outcome.CHANGED, code);
        }
        Outcome outcome = switch ((int) code) {
            case -1 -> Outcome.IN_FLIGHT;
            case -2 -> Outcome.NOT_PENDING;
            case -3 -> Outcome.DELAY_TOO_LONG;
            default -> throw new IllegalStateException("changeDueTime.lua returned unknown code " + code);
        };
        return new DueTimeChange(outcome, -1);
    }
}
