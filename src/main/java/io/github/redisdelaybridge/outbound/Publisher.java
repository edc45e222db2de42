package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import java.util.concurrent.CompletableFuture;

/** Delivers a due message to its target; the future completes when the target broker has acknowledged it. */
public interface Publisher {

    CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt);
}
