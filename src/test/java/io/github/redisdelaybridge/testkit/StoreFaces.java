package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.ingest.NamesCapListener;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;

/**
 * The store's three faces over one connection, for tests that store through one face and claim or read through another
 * (the bridge wires each face to its caller: config/BridgeBeans).
 */
public record StoreFaces(IngestStore ingest, DispatchStore dispatch, InspectionStore inspection) {

    public static StoreFaces over(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits) {
        return over(redis, keys, limits, ScriptTimings.NONE, NamesCapListener.NONE);
    }

    public static StoreFaces over(RedisScriptingAsyncCommands<byte[], byte[]> redis, Keys keys, StoreLimits limits, ScriptTimings timings,
                                  NamesCapListener namesCap) {
        ScriptRunner runner = new ScriptRunner(redis, timings);
        return new StoreFaces(new IngestStore(runner, keys, limits, namesCap), new DispatchStore(runner, keys, limits),
                new InspectionStore(runner, keys, limits));
    }

    public Keys keys() {
        return ingest.keys();
    }

    public StoreLimits limits() {
        return ingest.limits();
    }
}
