package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_BYTES;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.function.Function;

/**
 * {@code deadLetter.lua}: moves a claimed message into the dead-letter store, if the caller still holds its lease.
 * Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class DeadLetterScript {

    /** {@code Returns: 1 when moved, -1 when the lease no longer matched}. */
    static final ScriptContract<Long> CONTRACT =
            ScriptContract.returningInteger("deadLetter", IN_FLIGHT, PAYLOADS, ATTEMPTS, DEAD_LETTERS, DEAD_LETTER_INDEX, FAILING_SINCE,
                    DEAD_LETTER_BYTES, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private DeadLetterScript() {
    }

    /**
     * ARGV: message member, lease token, dead-letter record, most records kept in the slot, their maximum age in ms, and
     * the message id the record is kept under (the claimed id, or its stand-in), most bytes of records kept in the slot.
     */
    public static ScriptCall<Long> call(Keys keys, ClaimedMessage message, byte[] record, long maxRecords, long maxAgeMs, long maxBytes) {
        return CONTRACT.call(keys, message.slot(), Function.identity(), message.member(), number(message.leaseDeadline()), record,
                number(maxRecords), number(maxAgeMs), text(message.messageId()), number(maxBytes));
    }
}
