package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.Argv.dueMode;
import static io.github.redisdelaybridge.store.script.Argv.dueValue;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.ingest.Replacement.Outcome;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code replace.lua}: swaps a pending message's payload and due time for a replacement's, keeping its id. Its Lua header
 * is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ReplaceScript {

    /** {@code Returns: { result, uninterned }}. */
    enum Head { RESULT, UNINTERNED }

    /** What the call did, and whether the replacement was stored un-interned (the names hash is full). */
    record Replaced(Replacement replacement, boolean uninterned) {
    }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT = ScriptContract.returning(Reply.shape(Head.class), "replace",
            DUE, PAYLOADS, IN_FLIGHT, ATTEMPTS, FAILING_SINCE, DELIVERED, CANCELLED, DEAD_LETTERS, NAMES, ORIGINAL_DUE,
            GROUP_INDEX_PREFIX);

    private ReplaceScript() {
    }

    /**
     * ARGV: message id, due mode, due value, maximum delay, dedupe window, cancel window, the names cap (names, bytes), the
     * replacement's envelope.
     */
    public static ScriptCall<Replaced> call(Keys keys, ScheduleRequest replacement, long maxDelayMs, long dedupeWindowMs,
                                            long cancelWindowMs, NameLimits names) {
        return CONTRACT.call(keys, keys.slotOf(replacement.messageId()), ReplaceScript::replacedOf,
                text(replacement.messageId()), dueMode(replacement.dueTime()), dueValue(replacement.dueTime()), number(maxDelayMs),
                number(dedupeWindowMs), number(cancelWindowMs), number(names.maxNamesPerSlot()), number(names.maxBytesPerSlot()),
                EnvelopeCodec.encode(replacement.envelope()));
    }

    private static Replaced replacedOf(Reply<Head, Reply.None> reply) {
        return new Replaced(replacementOf(reply.number(Head.RESULT)), reply.number(Head.UNINTERNED) == 1);
    }

    /** A due time (>= 0), or the header's negative codes. */
    static Replacement replacementOf(long code) {
        if (code >= 0) {
            return new Replacement(Outcome.REPLACED, code);
        }
        Outcome outcome = switch ((int) code) {
            case -1 -> Outcome.IN_FLIGHT;
            case -2 -> Outcome.ALREADY_DELIVERED;
            case -3 -> Outcome.ALREADY_CANCELLED;
            case -4 -> Outcome.DEAD_LETTER;
            case -5 -> Outcome.NOT_FOUND;
            case -6 -> Outcome.DELAY_TOO_LONG;
            default -> throw new IllegalStateException("replace.lua returned unknown code " + code);
        };
        return new Replacement(outcome, -1);
    }
}
