package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code recordFailure.lua}: counts a failed publish of a claimed message and says since when it has been failing, if
 * the caller still holds its lease. Its Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class RecordFailureScript {

    /** {@code Returns: { attempts, failingSince, now }}, or { -1 } when the lease did not match. */
    enum Head { ATTEMPTS, FAILING_SINCE, NOW }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returning(Reply.shape(Head.class), "recordFailure", IN_FLIGHT, ATTEMPTS, FAILING_SINCE);

    private RecordFailureScript() {
    }

    /** ARGV: message member, lease token. */
    public static ScriptCall<RecordedFailure> call(Keys keys, ClaimedMessage message) {
        return CONTRACT.call(keys, message.slot(), RecordFailureScript::recordedOf, message.member(), number(message.leaseDeadline()));
    }

    private static RecordedFailure recordedOf(Reply<Head, Reply.None> reply) {
        long attempts = reply.number(Head.ATTEMPTS);
        return attempts < 0 ? RecordedFailure.LEASE_LOST
                : new RecordedFailure((int) attempts, reply.number(Head.FAILING_SINCE), reply.number(Head.NOW));
    }
}
