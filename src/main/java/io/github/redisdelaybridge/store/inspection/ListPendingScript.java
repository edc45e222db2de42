package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.form.StandInIds;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code listPending.lua}: one page of a slot's pending messages in due order. Its Lua header is the contract; this
 * class is its Java side ({@link ScriptContract}).
 */
public final class ListPendingScript {

    /** {@code Returns: { finished, lastDue, lastMember, id1, due1, attempts1, size1, target1, member1, id2, ... }}. */
    enum Head { FINISHED, LAST_DUE, LAST_MEMBER }

    enum Entry { ID, DUE, ATTEMPTS, SIZE, TARGET, MEMBER }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "listPending", DUE, PAYLOADS, ATTEMPTS, NAMES);

    private ListPendingScript() {
    }

    /**
     * ARGV: start after this due time and member ({@code after}; null: from the first), due before (exclusive; null: no
     * bound), at most {@code limit} messages, only targets matching this glob ({@link PendingFilter#target}; null: any),
     * examine at most {@code scanBudget}, and 1 to start at the member itself (the position is in an earlier slot,
     * {@link ListPosition#includesMemberIn}).
     */
    public static ScriptCall<SlotPage<PendingEntry>> call(Keys keys, int slot, ListPosition after, Long dueBefore, int limit, String target,
                                                   int scanBudget) {
        return CONTRACT.call(keys, slot, reply -> pageOf(reply, keys, slot),
                after == null ? text("-inf") : number(after.score()), after == null ? new byte[0] : after.member(),
                dueBefore == null ? text("+inf") : number(dueBefore), number(limit), text(target == null ? "" : target),
                number(scanBudget), flag(after != null && after.includesMemberIn(slot)));
    }

    private static SlotPage<PendingEntry> pageOf(Reply<Head, Entry> reply, Keys keys, int slot) {
        List<PendingEntry> entries = new ArrayList<>(reply.entries());
        for (int i = 0; i < reply.entries(); i++) {
            byte[] member = reply.bytes(i, Entry.MEMBER);
            long due = reply.number(i, Entry.DUE);
            entries.add(new PendingEntry(StandInIds.idOf(reply.bytes(i, Entry.ID), member, keys, slot), due, (int) reply.number(i, Entry.ATTEMPTS),
                    reply.number(i, Entry.SIZE), reply.text(i, Entry.TARGET), new ListPosition(due, member, slot)));
        }
        // the last position examined is read only when the slot was not examined to its end (else it may be the
        // caller's '-inf', as given)
        boolean finished = reply.number(Head.FINISHED) == 1;
        return new SlotPage<>(entries, finished ? null : new ListPosition(reply.number(Head.LAST_DUE), reply.bytes(Head.LAST_MEMBER), slot));
    }
}
