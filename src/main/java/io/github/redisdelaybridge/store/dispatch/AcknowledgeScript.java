package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.text;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.SlotKey.ATTEMPTS;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.FAILING_SINCE;
import static io.github.redisdelaybridge.store.script.SlotKey.IN_FLIGHT;
import static io.github.redisdelaybridge.store.script.SlotKey.ORIGINAL_DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.List;
import java.util.function.Function;

/**
 * {@code acknowledge.lua}: forgets delivered messages of one slot that still hold the caller's lease. Its Lua header
 * is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class AcknowledgeScript {

    /** {@code Returns: the number of messages acknowledged}. */
    static final ScriptContract<Long> CONTRACT = ScriptContract.returningInteger("acknowledge", IN_FLIGHT, PAYLOADS, ATTEMPTS, DELIVERED,
            FAILING_SINCE, GROUP_INDEX_PREFIX, ORIGINAL_DUE);

    private static final byte[] NO_GROUP = new byte[0];

    private AcknowledgeScript() {
    }

    /**
     * ARGV: dedupe window in ms, then per message its member, lease token (the lease deadline its claim returned) and group
     * (empty for none: only an envelope flagged as grouped is read for it, {@link EnvelopeCodec#groupOf}).
     */
    public static ScriptCall<Long> call(Keys keys, int slot, long dedupeWindowMs, List<ClaimedMessage> delivered) {
        byte[][] args = new byte[1 + 3 * delivered.size()][];
        args[0] = number(dedupeWindowMs);
        int a = 1;
        for (ClaimedMessage message : delivered) {
            args[a++] = message.member();
            args[a++] = number(message.leaseDeadline());
            String group = EnvelopeCodec.groupOf(message.encodedEnvelope());
            args[a++] = group == null ? NO_GROUP : text(group);
        }
        return CONTRACT.call(keys, slot, Function.identity(), args);
    }
}
