package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import java.util.concurrent.CompletableFuture;

/**
 * A target publisher: delivers a due message to its target; the future completes when the target broker
 * has acknowledged it. Implementations turn the envelope into the broker's message and send it through a
 * broker client ({@code outbound/client}).
 */
public interface TargetPublisher {

    CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt);
}
