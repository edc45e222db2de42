package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.flag;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.form.StandInIds;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code listGroup.lua}: one page of a group's messages in one slot, in due order. Its Lua header is the contract; this
 * class is its Java side ({@link ScriptContract}).
 */
public final class ListGroupScript {

    /** {@code Returns: { finished, lastDue, lastMember, id1, due1, inFlight1, member1, id2, ... }}. */
    enum Head { FINISHED, LAST_DUE, LAST_MEMBER }

    enum Entry { ID, DUE, IN_FLIGHT, MEMBER }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "listGroup", GROUP_INDEX_PREFIX, DUE, IN_FLIGHT, NAMES);

    private ListGroupScript() {
    }

    /**
     * ARGV: group name, start after this due time and member ({@code after}; null: from the first), at most {@code limit}
     * messages, examine at most {@code scanBudget}, and 1 to start at the member itself ({@link ListPosition#includesMemberIn}).
     */
    public static ScriptCall<SlotPage<GroupEntry>> call(Keys keys, int slot, String group, ListPosition after, int limit, int scanBudget) {
        return CONTRACT.call(keys, slot, reply -> pageOf(reply, keys, slot), text(group),
                after == null ? text("-inf") : number(after.score()), after == null ? new byte[0] : after.member(), number(limit),
                number(scanBudget), flag(after != null && after.includesMemberIn(slot)));
    }

    private static SlotPage<GroupEntry> pageOf(Reply<Head, Entry> reply, Keys keys, int slot) {
        List<GroupEntry> entries = new ArrayList<>(reply.entries());
        for (int i = 0; i < reply.entries(); i++) {
            byte[] member = reply.bytes(i, Entry.MEMBER);
            long due = reply.number(i, Entry.DUE);
            entries.add(new GroupEntry(StandInIds.idOf(reply.bytes(i, Entry.ID), member, keys, slot), due, reply.number(i, Entry.IN_FLIGHT) == 1,
                    new ListPosition(due, member, slot)));
        }
        boolean finished = reply.number(Head.FINISHED) == 1;
        return new SlotPage<>(entries, finished ? null : new ListPosition(reply.number(Head.LAST_DUE), reply.bytes(Head.LAST_MEMBER), slot));
    }
}
