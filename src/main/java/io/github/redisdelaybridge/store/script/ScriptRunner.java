package io.github.redisdelaybridge.store.script;

import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.concurrent.CompletableFuture;

/**
 * Runs script calls on one Redis connection, and tells {@link ScriptTimings} how long each took: every call of every face
 * of the store goes through {@link #run}, the one place to observe them (one call = one EVALSHA, or EVAL on NOSCRIPT).
 * Calls are asynchronous: Lettuce pipelines concurrent calls on one connection, so a batch split over several slots
 * costs one round trip, not one per slot.
 */
public final class ScriptRunner {

    /**
     * Messages per schedule, claim or acknowledge script call at most. A script blocks every other Redis
     * client while it runs, so a batch is split into calls of well under a millisecond each, sent pipelined
     * (one round trip still): on a busy host a call is stretched by however long Redis waits for a CPU,
     * and a short call rarely straddles such a wait, so a thundering herd stays out of SLOWLOG. It also
     * keeps Lua's unpack (which takes a few thousand values at most) far from its limit.
     */
    public static final int MESSAGES_PER_CALL = 100;

    private final RedisScriptingAsyncCommands<byte[], byte[]> redis;
    private final ScriptTimings timings;

    /** @param timings told how long each script call took */
    public ScriptRunner(RedisScriptingAsyncCommands<byte[], byte[]> redis, ScriptTimings timings) {
        this.redis = redis;
        this.timings = timings;
    }

    public <T> CompletableFuture<T> run(ScriptCall<T> call) {
        long start = System.nanoTime();
        String script = call.contract().script().name();
        return call.run(redis).whenComplete((result, failure) -> timings.completed(script, System.nanoTime() - start));
    }
}
