package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.Argv.flag;
import static io.github.redisdelaybridge.store.Argv.number;
import static io.github.redisdelaybridge.store.Argv.text;
import static io.github.redisdelaybridge.store.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.SlotKey.DUE;
import static io.github.redisdelaybridge.store.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.SlotKey.PAYLOADS;

/**
 * {@code cancel.lua}: withdraws a pending message, or records the cancel of one not known yet. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
final class CancelScript {

    /** {@code Returns:} one of the codes below. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("cancel",
            DUE, PAYLOADS, IN_FLIGHT, ATTEMPTS, CANCELLED, DELIVERED, DEAD_LETTERS, NAMES, FAILING_SINCE);

    private CancelScript() {
    }

    /**
     * ARGV: message id, cancel window in ms, dedupe window in ms, 1 to record the cancel of an unknown id (0 not to), the names
     * cap (names, bytes).
     */
    static ScriptCall<CancelOutcome> call(Keys keys, String messageId, long cancelWindowMs, long dedupeWindowMs, boolean recordIfUnknown,
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
