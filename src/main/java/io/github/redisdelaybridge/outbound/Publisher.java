package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.store.Envelope;
import java.util.concurrent.CompletableFuture;

/** Delivers a due message to its target; the future completes when the target broker has acknowledged it. */
public interface Publisher {

    CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt);
}
