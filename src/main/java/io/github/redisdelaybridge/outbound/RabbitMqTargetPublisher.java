package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes due messages to {@code rabbitmq:<exchange>/<routing-key>} targets: the same body bytes, the
 * producer's headers and properties ({@link AmqpMessageMapping}) plus {@code x-message-id} and
 * {@code x-delay-due-at}, persistent, mandatory, confirmed.
 */
public final class RabbitMqTargetPublisher implements TargetPublisher {

    private final RabbitMqConfirmingClient rabbitMq;

    public RabbitMqTargetPublisher(RabbitMqConfirmingClient rabbitMq) {
        this.rabbitMq = rabbitMq;
    }

    @Override
    public CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt) {
        Target.RabbitMq destination = (Target.RabbitMq) target;
        return rabbitMq.publish(destination.exchange(), destination.routingKey(),
                AmqpMessageMapping.properties(DeliveryHeaders.of(envelope, dueAt), envelope.properties(), envelope.key()),
                envelope.body());
    }
}
