package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.store.script.SlotKey.GROUP_INDEX_PREFIX;
import static io.github.redisdelaybridge.store.script.Argv.dueMode;
import static io.github.redisdelaybridge.store.script.Argv.dueValue;
import static io.github.redisdelaybridge.store.script.Argv.number;
import static io.github.redisdelaybridge.store.script.Argv.text;
import static io.github.redisdelaybridge.store.script.SlotKey.CANCELLED;
import static io.github.redisdelaybridge.store.script.SlotKey.DELIVERED;
import static io.github.redisdelaybridge.store.script.SlotKey.DUE;
import static io.github.redisdelaybridge.store.script.SlotKey.NAMES;
import static io.github.redisdelaybridge.store.script.SlotKey.PAYLOADS;

import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleResult.Outcome;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.List;

/**
 * {@code schedule.lua}: stores a batch of delayed messages of one slot. Its Lua header is the contract; this class is
 * its Java side ({@link ScriptContract}).
 */
public final class ScheduleScript {

    /** {@code Returns: { result1, result2, ..., now, uninterned }}. */
    enum Entry { RESULT }

    enum Tail { NOW, UNINTERNED }

    /** One call's results, one per request in the requests' order, and how many payloads it stored un-interned. */
    record Stored(ScheduleResult[] results, long uninterned) {
    }

    static final ScriptContract<Reply<Reply.None, Entry>> CONTRACT =
            ScriptContract.returning(Reply.entriesThen(Entry.class, Tail.class), "schedule", DUE, PAYLOADS, DELIVERED, CANCELLED, NAMES, GROUP_INDEX_PREFIX);

    private ScheduleScript() {
    }

    /**
     * ARGV: maximum delay, dedupe window, cancel window, the names cap (names, bytes), then per request its id, due mode, due
     * value and envelope.
     */
    public static ScriptCall<Stored> call(Keys keys, int slot, long maxDelayMs, long dedupeWindowMs, long cancelWindowMs, NameLimits names,
                                   List<ScheduleRequest> requests) {
        byte[][] args = new byte[5 + 4 * requests.size()][];
        args[0] = number(maxDelayMs);
        args[1] = number(dedupeWindowMs);
        args[2] = number(cancelWindowMs);
        args[3] = number(names.maxNamesPerSlot());
        args[4] = number(names.maxBytesPerSlot());
        int a = 5;
        for (ScheduleRequest request : requests) {
            args[a++] = text(request.messageId());
            args[a++] = dueMode(request.dueTime());
            args[a++] = dueValue(request.dueTime());
            args[a++] = EnvelopeCodec.encode(request.envelope());
        }
        return CONTRACT.call(keys, slot, reply -> resultsOf(reply, requests.size()), args);
    }

    /** One result per request, in the requests' order. */
    private static Stored resultsOf(Reply<Reply.None, Entry> reply, int requests) {
        ScheduleResult[] results = new ScheduleResult[requests];
        for (int i = 0; i < requests; i++) {
            results[i] = resultOf(reply.number(i, Entry.RESULT));
        }
        return new Stored(results, reply.tailNumber(Tail.UNINTERNED));
    }

    /** A due time (>= 0), or the header's negative codes. */
    static ScheduleResult resultOf(long code) {
        if (code >= 0) {
            return new ScheduleResult(Outcome.SCHEDULED, code);
        }
        Outcome outcome = switch ((int) code) {
            case -1 -> Outcome.DUPLICATE_PENDING;
            case -2 -> Outcome.DUPLICATE_DELIVERED;
            case -3 -> Outcome.DELAY_TOO_LONG;
            case -4 -> Outcome.CANCELLED;
            case -5 -> Outcome.DUPLICATE_ID;
            default -> throw new IllegalStateException("schedule.lua returned unknown code " + code);
        };
        return new ScheduleResult(outcome, -1);
    }
}
