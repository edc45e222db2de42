package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTERS;
import static io.github.redisdelaybridge.store.script.SlotKey.DEAD_LETTER_INDEX;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ParkedScore;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code inspect.lua}: everything Redis knows about one message id, read in one step. Its Lua header is the contract;
 * this class is its Java side ({@link ScriptContract}).
 */
public final class InspectScript {

    /** {@code Returns: { now, due, leaseUntil, attempts, envelope, deliveredAt, cancelledAt, deadAt, deadRecord, size }}. */
    enum Head { NOW, DUE, LEASE_UNTIL, ATTEMPTS, ENVELOPE, DELIVERED_AT, CANCELLED_AT, DEAD_AT, DEAD_RECORD, SIZE }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT = ScriptContract.returning(Reply.shape(Head.class), "inspect",
            DUE, IN_FLIGHT, PAYLOADS, ATTEMPTS, DELIVERED, CANCELLED, DEAD_LETTERS, DEAD_LETTER_INDEX, NAMES);

    private InspectScript() {
    }

    /** ARGV: message id, dedupe window in ms, cancel window in ms. */
    public static ScriptCall<MessageFacts> call(Keys keys, String messageId, long dedupeWindowMs, long cancelWindowMs) {
        return CONTRACT.call(keys, keys.slotOf(messageId), reply -> factsOf(reply, messageId),
                text(messageId), number(dedupeWindowMs), number(cancelWindowMs));
    }

    private static MessageFacts factsOf(Reply<Head, Reply.None> reply, String messageId) {
        Long score = reply.numberOrNull(Head.DUE);
        return new MessageFacts(messageId, reply.number(Head.NOW), score == null ? null : ParkedScore.dueOf(score), reply.numberOrNull(Head.LEASE_UNTIL),
                (int) reply.number(Head.ATTEMPTS), reply.bytes(Head.ENVELOPE), reply.numberOrNull(Head.DELIVERED_AT),
                reply.numberOrNull(Head.CANCELLED_AT), reply.numberOrNull(Head.DEAD_AT), reply.bytes(Head.DEAD_RECORD),
                reply.numberOrNull(Head.SIZE), score != null && ParkedScore.isParked(score));
    }
}
