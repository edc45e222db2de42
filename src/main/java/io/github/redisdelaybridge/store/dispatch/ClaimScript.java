package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.CLAIMS;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.LEASE_CLAIMERS;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKED_TARGETS;
import static io.github.redisdelaybridge.store.script.SlotKey.PARKING_EXEMPTIONS;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code claim.lua}: takes up to a batch of due messages of one slot under a lease. Its Lua header is the contract;
 * this class is its Java side ({@link ScriptContract}).
 */
public final class ClaimScript {

    /** {@code Returns: { now, nextDue, leaseDeadline, namesTag, member1, due1, attempts1, envelope1, originalDue1, member2, ... }}. */
    enum Head { NOW, NEXT_DUE, LEASE_DEADLINE, NAMES_TAG }

    enum Entry { MEMBER, DUE, ATTEMPTS, ENVELOPE, ORIGINAL_DUE }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class, Entry.class), "claim", DUE, IN_FLIGHT, PAYLOADS, ATTEMPTS, NAMES, CLAIMS,
                    LEASE_CLAIMERS, ORIGINAL_DUE, PARKED_TARGETS, PARKED_INDEX_PREFIX, PARKING_EXEMPTIONS);

    /**
     * One claimed message as Redis holds it: its member and payload still in the stored forms ({@link ClaimedNames} reads them);
     * {@code originalDueAt}: its due time before the bridge moved it, or -1 when it was not moved.
     */
    record StoredMessage(byte[] member, long dueAt, int attempts, byte[] storedEnvelope, long originalDueAt) {
    }

    /** A claim's answer as the script returns it; {@code namesTag}: the slot's names hash's tag (-1: none). */
    record StoredClaim(long redisNow, long nextDue, long leaseDeadline, int namesTag, List<StoredMessage> messages) {
    }

    private ClaimScript() {
    }

    /**
     * ARGV: batch size, lease duration in ms, the claimer id and its round ({@code tag}; null: empty, nothing recorded), how far
     * ahead of Redis's clock to claim in ms.
     */
    public static ScriptCall<StoredClaim> call(Keys keys, int slot, int batchSize, long leaseMs, ClaimTag tag, long aheadMs) {
        return CONTRACT.call(keys, slot, ClaimScript::claimOf, number(batchSize), number(leaseMs),
                text(tag == null ? "" : tag.claimerId()), text(tag == null ? "" : Long.toString(tag.round())), number(aheadMs));
    }

    private static StoredClaim claimOf(Reply<Head, Entry> reply) {
        List<StoredMessage> messages = new ArrayList<>(reply.entries());
        for (int i = 0; i < reply.entries(); i++) {
            messages.add(new StoredMessage(reply.bytes(i, Entry.MEMBER), reply.number(i, Entry.DUE), (int) reply.number(i, Entry.ATTEMPTS),
                    reply.bytes(i, Entry.ENVELOPE), reply.number(i, Entry.ORIGINAL_DUE)));
        }
        return new StoredClaim(reply.number(Head.NOW), reply.number(Head.NEXT_DUE), reply.number(Head.LEASE_DEADLINE),
                (int) reply.number(Head.NAMES_TAG), messages);
    }
}
