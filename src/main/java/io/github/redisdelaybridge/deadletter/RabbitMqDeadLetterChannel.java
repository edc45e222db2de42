package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.outbound.AmqpMessageMapping;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters to a RabbitMQ exchange and routing key (confirmed, mandatory, persistent): the original
 * body, headers and properties ({@link AmqpMessageMapping}), plus the reason, detail, origin and attempts
 * as string headers ({@link DeadLetterHeaders}). A tombstone (no body) goes as an empty body.
 */
public final class RabbitMqDeadLetterChannel implements DeadLetterChannel {

    private final RabbitMqConfirmingClient rabbitMq;
    private final String exchange;
    private final String routingKey;
    private final ChannelLimit limit;

    public RabbitMqDeadLetterChannel(RabbitMqConfirmingClient rabbitMq, String exchange, String routingKey, ChannelLimit limit) {
        this.rabbitMq = rabbitMq;
        this.exchange = exchange;
        this.routingKey = routingKey;
        this.limit = limit;
    }

    @Override
    public ChannelLimit limit(DeadLetter deadLetter) {
        return limit;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        return rabbitMq.publish(exchange, routingKey,
                AmqpMessageMapping.properties(DeadLetterHeaders.of(deadLetter.headers(), deadLetter), deadLetter.properties(), deadLetter.key()),
                deadLetter.body() == null ? new byte[0] : deadLetter.body());
    }
}
