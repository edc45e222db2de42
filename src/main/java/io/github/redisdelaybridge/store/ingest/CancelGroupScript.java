package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code cancelGroup.lua}: withdraws one batch of a group's pending messages in one slot. Its Lua header is the contract;
 * this class is its Java side ({@link ScriptContract}).
 */
public final class CancelGroupScript {

    /** {@code Returns: { cancelled, inFlight, nextOffset, done }}. */
    enum Head { CANCELLED, IN_FLIGHT, NEXT_OFFSET, DONE }

    /** One batch's counts, and where the next batch starts ({@code done}: there is none). */
    record Batch(long cancelled, long inFlight, long nextOffset, boolean done) {
    }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT = ScriptContract.returning(Reply.shape(Head.class), "cancelGroup",
            DUE, PAYLOADS, IN_FLIGHT, ATTEMPTS, CANCELLED, FAILING_SINCE, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private CancelGroupScript() {
    }

    /** ARGV: group name, cancel window in ms, batch, offset, 1 for a dry run. */
    public static ScriptCall<Batch> call(Keys keys, int slot, String group, long cancelWindowMs, int batch, long offset, boolean dryRun) {
        return CONTRACT.call(keys, slot, reply -> new Batch(reply.number(Head.CANCELLED), reply.number(Head.IN_FLIGHT),
                reply.number(Head.NEXT_OFFSET), reply.number(Head.DONE) == 1), text(group), number(cancelWindowMs), number(batch),
                number(offset), flag(dryRun));
    }
}
