package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.Argv.number;
import static io.github.redisdelaybridge.store.Argv.text;
import static io.github.redisdelaybridge.store.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.SlotKey.CLAIMS;
import static io.github.redisdelaybridge.store.SlotKey.DUE;
import static io.github.redisdelaybridge.store.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.SlotKey.PAYLOADS;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code claim.lua}: takes up to a batch of due messages of one slot under a lease. Its Lua header is the contract;
 * this class is its Java side ({@link ScriptContract}).
 */
final class ClaimScript {

    /** {@code Returns: { now, nextDue, leaseDeadline, id1, member1, due1, attempts1, envelope1, id2, ... }}. */
    enum Head { NOW, NEXT_DUE, LEASE_DEADLINE }

    enum Entry { ID, MEMBER, DUE, ATTEMPTS, ENVELOPE }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "claim", DUE, IN_FLIGHT, PAYLOADS, ATTEMPTS, NAMES, CLAIMS);

    private ClaimScript() {
    }

    /** ARGV: batch size, lease duration in ms, the claimer id and its round ({@code tag}; null: empty, nothing recorded). */
    static ScriptCall<ClaimedBatch> call(Keys keys, int slot, int batchSize, long leaseMs, ClaimTag tag) {
        return CONTRACT.call(keys, slot, reply -> batchOf(reply, keys, slot), number(batchSize), number(leaseMs),
                text(tag == null ? "" : tag.claimerId()), text(tag == null ? "" : Long.toString(tag.round())));
    }

    private static ClaimedBatch batchOf(Reply<Head, Entry> reply, Keys keys, int slot) {
        long leaseDeadline = reply.number(Head.LEASE_DEADLINE);
        List<ClaimedMessage> messages = new ArrayList<>(reply.entries());
        for (int i = 0; i < reply.entries(); i++) {
            byte[] id = reply.bytes(i, Entry.ID);
            byte[] member = reply.bytes(i, Entry.MEMBER);
            messages.add(new ClaimedMessage(slot, StandInIds.idOf(id, member, keys, slot), member, id != null, reply.number(i, Entry.DUE),
                    (int) reply.number(i, Entry.ATTEMPTS), reply.bytes(i, Entry.ENVELOPE), leaseDeadline));
        }
        return new ClaimedBatch(reply.number(Head.NOW), reply.number(Head.NEXT_DUE), messages);
    }
}
