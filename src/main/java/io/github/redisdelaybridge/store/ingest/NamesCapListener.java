package io.github.redisdelaybridge.store.ingest;

import io.github.redisdelaybridge.store.NameLimits;

/**
 * Told how many payloads a schedule call stored un-interned because the slot's names hash is full ({@link NameLimits}):
 * the metrics layer implements it, since this layer may not know it. Called on whichever thread completed the call.
 */
@FunctionalInterface
public interface NamesCapListener {

    NamesCapListener NONE = payloads -> { };

    void storedUninterned(long payloads);
}
