package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.DeadLetter;
import java.util.concurrent.CompletableFuture;

/**
 * Sends each dead letter to the channel for where it came from: messages consumed from RabbitMQ
 * (origin {@code rabbitmq:...}) to the RabbitMQ-origin channel ({@code bridge.rabbitmq.dead-letter-channel}),
 * everything else (Kafka origins, unreadable records) to the Kafka dead-letter topic.
 */
public final class OriginRoutingDeadLetterChannel implements DeadLetterChannel {

    private final DeadLetterChannel kafkaOrigin;
    private final DeadLetterChannel rabbitMqOrigin;

    public OriginRoutingDeadLetterChannel(DeadLetterChannel kafkaOrigin, DeadLetterChannel rabbitMqOrigin) {
        this.kafkaOrigin = kafkaOrigin;
        this.rabbitMqOrigin = rabbitMqOrigin;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        return channelFor(deadLetter).send(deadLetter);
    }

    @Override
    public ChannelLimit limit(DeadLetter deadLetter) {
        return channelFor(deadLetter).limit(deadLetter);
    }

    private DeadLetterChannel channelFor(DeadLetter deadLetter) {
        return deadLetter.origin().startsWith(Broker.RABBITMQ.scheme()) ? rabbitMqOrigin : kafkaOrigin;
    }
}
