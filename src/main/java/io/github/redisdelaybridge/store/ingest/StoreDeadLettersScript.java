package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_BYTES;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code storeDeadLetters.lua}: keeps records of messages refused at ingest in one slot's dead-letter store. Its Lua
 * header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class StoreDeadLettersScript {

    /** {@code Returns: the number of records stored}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("storeDeadLetters", DEAD_LETTERS, DEAD_LETTER_INDEX, DEAD_LETTER_BYTES);

    private StoreDeadLettersScript() {
    }

    /** ARGV: most records kept in the slot, their maximum age in ms, most bytes kept, then per record its message id and bytes. */
    public static ScriptCall<Long> call(Keys keys, int slot, long maxRecords, long maxAgeMs, long maxBytes,
                                 List<Map.Entry<String, byte[]>> recordsById) {
        byte[][] args = new byte[3 + 2 * recordsById.size()][];
        args[0] = number(maxRecords);
        args[1] = number(maxAgeMs);
        args[2] = number(maxBytes);
        int a = 3;
        for (Map.Entry<String, byte[]> record : recordsById) {
            args[a++] = text(record.getKey());
            args[a++] = record.getValue();
        }
        return CONTRACT.call(keys, slot, Function.identity(), args);
    }
}
