package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.store.script.Argv.number;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;

/**
 * {@code takeTokens.lua}: takes tokens from a target pattern's bucket, shared by every instance. Its Lua header is the
 * contract; this class is its Java side ({@link ScriptContract}).
 */
public final class TakeTokensScript {

    /** {@code Returns: { granted, now }}. */
    enum Head { GRANTED, NOW }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returningOnOwnKey(Reply.shape(Head.class), "takeTokens", "token bucket");

    private TakeTokensScript() {
    }

    /** ARGV: rate (tokens per second), tokens asked. */
    public static ScriptCall<TokensTaken> call(Keys keys, String patternName, double ratePerSecond, int asked) {
        return CONTRACT.callOnKey(keys.tokenBucket(patternName),
                reply -> new TokensTaken((int) reply.number(Head.GRANTED), reply.number(Head.NOW)),
                number(Math.round(ratePerSecond)), number(asked));
    }
}
