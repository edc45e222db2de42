package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_BYTES;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code deleteDeadLetter.lua}: forgets a dead letter. Its Lua header is the contract; this class is its Java side
 * ({@link ScriptContract}).
 */
public final class DeleteDeadLetterScript {

    /** {@code Returns: 1 when deleted, 0 when there was no such dead letter}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("deleteDeadLetter", DEAD_LETTERS, DEAD_LETTER_INDEX, DEAD_LETTER_BYTES);

    private DeleteDeadLetterScript() {
    }

    /** ARGV: message id. */
    public static ScriptCall<Boolean> call(Keys keys, String messageId) {
        return CONTRACT.call(keys, keys.slotOf(messageId), deleted -> deleted == 1, text(messageId));
    }
}
