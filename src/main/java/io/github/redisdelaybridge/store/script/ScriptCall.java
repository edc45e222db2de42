package io.github.redisdelaybridge.store.script;

import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One call of a script: its KEYS and ARGV, in its header's order ({@link ScriptContract#call}), and how its reply
 * becomes the caller's result.
 */
public record ScriptCall<T>(ScriptContract<?> contract, byte[][] keys, byte[][] args, Function<Object, T> decode) {

    /** EVALSHA (EVAL on NOSCRIPT: {@link LuaScript#run}), then the reply decoded. */
    public CompletableFuture<T> run(RedisScriptingAsyncCommands<byte[], byte[]> redis) {
        return contract.script().run(redis, contract.output(), keys, args).thenApply(decode);
    }
}
