package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code listDeadLetters.lua}: one page of a slot's dead letters, oldest first. Its Lua header is the contract; this
 * class is its Java side ({@link ScriptContract}).
 */
public final class ListDeadLettersScript {

    /** {@code Returns: { finished, lastTime, lastId, id1, deadAt1, size1, reason1, attempts1, target1, id2, ... }}. */
    enum Head { FINISHED, LAST_TIME, LAST_ID }

    enum Entry { ID, DEAD_AT, SIZE, REASON, ATTEMPTS, TARGET }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "listDeadLetters", DEAD_LETTERS, DEAD_LETTER_INDEX);

    private ListDeadLettersScript() {
    }

    /**
     * ARGV: start after this time and id ({@code after}; null: from the oldest), at most {@code limit} records, only this
     * reason (null: any), examine at most {@code scanBudget}.
     */
    public static ScriptCall<SlotPage<DeadLetterEntry>> call(Keys keys, int slot, ListPosition after, int limit, String reason, int scanBudget) {
        return CONTRACT.call(keys, slot, reply -> pageOf(reply, slot),
                after == null ? text("-inf") : number(after.score()), after == null ? new byte[0] : after.member(), number(limit),
                text(reason == null ? "" : reason), number(scanBudget));
    }

    private static SlotPage<DeadLetterEntry> pageOf(Reply<Head, Entry> reply, int slot) {
        List<DeadLetterEntry> entries = new ArrayList<>(reply.entries());
        for (int i = 0; i < reply.entries(); i++) {
            entries.add(new DeadLetterEntry(reply.text(i, Entry.ID), reply.number(i, Entry.DEAD_AT), reply.number(i, Entry.SIZE),
                    reply.text(i, Entry.REASON), (int) reply.number(i, Entry.ATTEMPTS), reply.text(i, Entry.TARGET), slot));
        }
        // the last position examined is read only when the slot was not examined to its end (else it may be the
        // caller's '-inf', as given)
        boolean finished = reply.number(Head.FINISHED) == 1;
        return new SlotPage<>(entries, finished ? null : new ListPosition(reply.number(Head.LAST_TIME), reply.bytes(Head.LAST_ID), slot));
    }
}
