package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.dueMode;
import static io.github.redisdelaybridge.store.script.Argv.dueValue;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_BYTES;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.inspection.ReplayResult.Outcome;
import io.github.redisdelaybridge.store.script.LuaScript;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code replayDeadLetter.lua}: schedules a dead letter again and removes it from the dead-letter store, in one step.
 * Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ReplayDeadLetterScript {

    /** {@code Returns: the due time (epoch ms, >= 0)}, or one of the negative codes below. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("replayDeadLetter",
            DEAD_LETTERS, DEAD_LETTER_INDEX, DUE, PAYLOADS, DELIVERED, CANCELLED, NAMES, DEAD_LETTER_BYTES, GROUP_INDEX_PREFIX);

    private ReplayDeadLetterScript() {
    }

    /** ARGV: message id, SHA1 of the record read, maximum delay in ms, due mode, due value, envelope, the names cap (names, bytes). */
    public static ScriptCall<ReplayResult> call(Keys keys, byte[] recordRead, ScheduleRequest request, long maxDelayMs, NameLimits names) {
        return CONTRACT.call(keys, keys.slotOf(request.messageId()), ReplayDeadLetterScript::resultOf,
                text(request.messageId()), text(LuaScript.sha1Hex(recordRead)), number(maxDelayMs), dueMode(request.dueTime()),
                dueValue(request.dueTime()), EnvelopeCodec.encode(request.envelope()), number(names.maxNamesPerSlot()),
                number(names.maxBytesPerSlot()));
    }

    static ReplayResult resultOf(long code) {
        if (code >= 0) {
            return new ReplayResult(Outcome.REPLAYED, code);
        }
        Outcome outcome = switch ((int) code) {
            case -1 -> Outcome.ID_IN_USE;
            case -2 -> Outcome.NOT_FOUND;
            case -3 -> Outcome.CHANGED_MEANWHILE;
            case -4 -> Outcome.DELAY_TOO_LONG;
            default -> throw new IllegalStateException("replayDeadLetter.lua returned unknown code " + code);
        };
        return new ReplayResult(outcome, -1);
    }
}
