package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import java.util.concurrent.CompletableFuture;

/** The publisher the dispatcher calls: hands each message to the target publisher of its target's broker. */
public final class BrokerRoutingPublisher implements TargetPublisher {

    private final TargetPublisher kafka;
    private final TargetPublisher rabbitMq;

    /** Either may be null when that broker is not configured; a message for it then fails to publish. */
    public BrokerRoutingPublisher(TargetPublisher kafka, TargetPublisher rabbitMq) {
        this.kafka = kafka;
        this.rabbitMq = rabbitMq;
    }

    @Override
    public CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt) {
        TargetPublisher publisher = switch (target.broker()) {
            case KAFKA -> kafka;
            case RABBITMQ -> rabbitMq;
        };
        if (publisher == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no publisher configured for " + target.uri()));
        }
        return publisher.publish(envelope, target, dueAt);
    }
}
