package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code cancel.lua}: withdraws a pending message, or records the cancel of one not known yet. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class CancelScript {

    /** {@code Returns:} one of the codes below. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("cancel",
            DUE, PAYLOADS, IN_FLIGHT, ATTEMPTS, CANCELLED, DELIVERED, DEAD_LETTERS, NAMES, FAILING_SINCE, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private CancelScript() {
    }

    /**
     * ARGV: message id, cancel window in ms, dedupe window in ms, 1 to record the cancel of an unknown id (0 not to), the names
     * cap (names, bytes).
     */
    public static ScriptCall<CancelOutcome> call(Keys keys, String messageId, long cancelWindowMs, long dedupeWindowMs, boolean recordIfUnknown,
                                          NameLimits names) {
        return CONTRACT.call(keys, keys.slotOf(messageId), CancelScript::outcomeOf, text(messageId), number(cancelWindowMs),
                number(dedupeWindowMs), flag(recordIfUnknown), number(names.maxNamesPerSlot()), number(names.maxBytesPerSlot()));
    }

    static CancelOutcome outcomeOf(long code) {
        return switch ((int) code) {
            case 1 -> CancelOutcome.WITHDRAWN;
            case 2 -> CancelOutcome.RECORDED;
            case 0 -> CancelOutcome.NOT_FOUND;
            case -1 -> CancelOutcome.IN_FLIGHT;
            case -2 -> CancelOutcome.ALREADY_DELIVERED;
            case -3 -> CancelOutcome.ALREADY_CANCELLED;
            case -4 -> CancelOutcome.DEAD_LETTER;
            default -> throw new IllegalStateException("cancel.lua returned unknown code " + code);
        };
    }
}
