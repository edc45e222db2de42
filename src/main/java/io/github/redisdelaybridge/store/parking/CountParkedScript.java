package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_INDEX_PREFIX;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Argv;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code countParked.lua}: how many messages of one slot are parked, in all and per target. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class CountParkedScript {

    /** {@code Returns: { parked, indexed1, indexed2, ... }}. */
    enum Head { PARKED }

    enum Entry { INDEXED }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "countParked", DUE, PARKED_INDEX_PREFIX);

    /** One slot's counts: all parked messages, and the index entries of each target asked, in order. */
    record SlotCounts(long parked, List<Long> indexed) {
    }

    private CountParkedScript() {
    }

    /** ARGV: the targets. */
    public static ScriptCall<SlotCounts> call(Keys keys, int slot, List<String> targets) {
        return CONTRACT.call(keys, slot, reply -> {
            List<Long> indexed = new ArrayList<>(reply.entries());
            for (int i = 0; i < reply.entries(); i++) {
                indexed.add(reply.number(i, Entry.INDEXED));
            }
            return new SlotCounts(reply.number(Head.PARKED), indexed);
        }, targets.stream().map(Argv::text).toArray(byte[][]::new));
    }
}
