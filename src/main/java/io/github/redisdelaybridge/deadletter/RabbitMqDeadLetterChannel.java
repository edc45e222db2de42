package io.github.redisdelaybridge.deadletter;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.AmqpMessageMapping;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Dead letters to a RabbitMQ exchange and routing key (confirmed, mandatory, persistent): the original
 * body, headers and properties ({@link AmqpMessageMapping}), plus the reason, detail, origin and attempts
 * as string headers.
 */
public final class RabbitMqDeadLetterChannel implements DeadLetterChannel {

    private final RabbitMqConfirmingClient rabbitMq;
    private final String exchange;
    private final String routingKey;

    public RabbitMqDeadLetterChannel(RabbitMqConfirmingClient rabbitMq, String exchange, String routingKey) {
        this.rabbitMq = rabbitMq;
        this.exchange = exchange;
        this.routingKey = routingKey;
    }

    @Override
    public CompletableFuture<Void> send(DeadLetter deadLetter) {
        List<MessageHeader> headers = new ArrayList<>(deadLetter.headers());
        if (deadLetter.messageId() != null && headers.stream().noneMatch(h -> h.name().equals(HeaderNames.MESSAGE_ID))) {
            headers.add(MessageHeader.text(HeaderNames.MESSAGE_ID, deadLetter.messageId()));
        }
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_REASON, deadLetter.reason().code()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_DETAIL, deadLetter.detail()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ORIGIN, deadLetter.origin()));
        headers.add(MessageHeader.text(HeaderNames.DEAD_LETTER_ATTEMPTS, Integer.toString(deadLetter.attempts())));
        return rabbitMq.publish(exchange, routingKey, AmqpMessageMapping.properties(headers, deadLetter.properties(), deadLetter.key()),
                deadLetter.body() == null ? new byte[0] : deadLetter.body());
    }
}
