package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes due messages to {@code kafka:<topic>} targets: same key, same value bytes, headers kept
 * ({@link KafkaHeaderMapping}: RabbitMQ-origin headers as text, AMQP properties as {@code amqp-*} headers).
 */
public final class KafkaTargetPublisher implements TargetPublisher {

    private final KafkaProducerClient kafka;

    public KafkaTargetPublisher(KafkaProducerClient kafka) {
        this.kafka = kafka;
    }

    @Override
    public CompletableFuture<Void> publish(Envelope envelope, Target target, long dueAt) {
        String topic = ((Target.Kafka) target).topic();
        return kafka.publish(topic, envelope.key(),
                KafkaHeaderMapping.headers(DeliveryHeaders.of(envelope, dueAt), envelope.properties()), envelope.body()).thenApply(metadata -> null);
    }
}
