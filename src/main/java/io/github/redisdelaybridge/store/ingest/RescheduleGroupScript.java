package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.Argv.dueMode;
import static io.github.redisdelaybridge.store.script.Argv.dueValue;
import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code rescheduleGroup.lua}: gives one batch of a group's pending messages in one slot a new due time. Its Lua header is
 * the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class RescheduleGroupScript {

    /** {@code Returns: { rescheduled, inFlight, dueAt, nextPhase, nextOffset }}. */
    enum Head { RESCHEDULED, IN_FLIGHT, DUE_AT, NEXT_PHASE, NEXT_OFFSET }

    /** The phase after the last: the slot's index is done. */
    static final long DONE = 3;

    /** One batch's counts, the due time given ({@code -1}: beyond the maximum delay), and where the next batch starts. */
    record Batch(long rescheduled, long inFlight, long dueAt, long nextPhase, long nextOffset) {
    }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT = ScriptContract.returning(Reply.shape(Head.class), "rescheduleGroup",
            DUE, IN_FLIGHT, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private RescheduleGroupScript() {
    }

    /** ARGV: group name, due mode, due value, maximum delay in ms, batch, phase, offset, 1 for a dry run. */
    public static ScriptCall<Batch> call(Keys keys, int slot, String group, DueTime dueTime, long maxDelayMs, int batch, long phase,
                                         long offset, boolean dryRun) {
        return CONTRACT.call(keys, slot, reply -> new Batch(reply.number(Head.RESCHEDULED), reply.number(Head.IN_FLIGHT),
                reply.number(Head.DUE_AT), reply.number(Head.NEXT_PHASE), reply.number(Head.NEXT_OFFSET)), text(group), dueMode(dueTime),
                dueValue(dueTime), number(maxDelayMs), number(batch), number(phase), number(offset), flag(dryRun));
    }
}
