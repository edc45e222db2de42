package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Argv;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code resolveNames.lua}: the names of some codes of a slot's names hash, with the hash's tag. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ResolveNamesScript {

    /** {@code Returns: { tag, name1, name2, ... }}. */
    enum Head { TAG }

    enum Entry { NAME }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT = ScriptContract.returning(Reply.shape(Head.class, Entry.class), "resolveNames", NAMES);

    /** @param names code -> name, for the codes the hash has */
    record Resolved(int tag, Map<Long, byte[]> names) {
    }

    private ResolveNamesScript() {
    }

    /** ARGV: the codes. */
    public static ScriptCall<Resolved> call(Keys keys, int slot, List<Long> codes) {
        byte[][] args = codes.stream().map(Argv::number).toArray(byte[][]::new);
        return CONTRACT.call(keys, slot, reply -> {
            Map<Long, byte[]> names = new HashMap<>();
            for (int i = 0; i < reply.entries(); i++) {
                byte[] name = reply.bytes(i, Entry.NAME);
                if (name != null) {
                    names.put(codes.get(i), name);
                }
            }
            return new Resolved((int) reply.number(Head.TAG), names);
        }, args);
    }
}
