package io.github.redisdelaybridge.store.script;

/**
 * Told how long each script call took, from sending to its reply (or failure): the metrics layer implements it, since
 * this layer may not know it. One call per script call, on whichever thread completed it: keep it cheap.
 */
@FunctionalInterface
public interface ScriptTimings {

    ScriptTimings NONE = (script, nanos) -> { };

    void completed(String script, long nanos);
}
