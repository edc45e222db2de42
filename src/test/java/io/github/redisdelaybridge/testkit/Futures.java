package io.github.redisdelaybridge.testkit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Waiting for the store's asynchronous results in tests: long enough for a busy machine, never forever. */
public final class Futures {

    private Futures() {
    }

    public static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }
}
