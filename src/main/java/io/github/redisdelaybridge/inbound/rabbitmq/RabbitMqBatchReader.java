package io.github.redisdelaybridge.inbound.rabbitmq;

import io.github.redisdelaybridge.inbound.GeneratedIds;
import io.github.redisdelaybridge.inbound.InboundBatch;
import io.github.redisdelaybridge.inbound.InboundMessage;
import io.github.redisdelaybridge.message.AmqpProperties;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;

/**
 * Reads a batch of RabbitMQ deliveries (raw AMQP messages, {@link RabbitMqDeliveries}) into broker-neutral inbound
 * messages, stored together like a Kafka poll. Header values keep their AMQP types; the properties worth delivering
 * again are kept as text ({@link AmqpProperties}), and the routing key each was published with is read for
 * {@code {routing-key}} in its target (through an inbound or delayed exchange, the producer's key). The acknowledgement is one {@code basic.ack} with {@code multiple}
 * for the whole batch.
 *
 * <p>Default message id: the AMQP {@code message-id} property, else {@code rabbitmq-<random UUID>}. A
 * generated id is new on every delivery, so a message redelivered by RabbitMQ (after a connection loss
 * or a requeue) is stored again and may be delivered twice; producers that set {@code message-id} or
 * {@code x-message-id} get redeliveries deduplicated.
 */
public final class RabbitMqBatchReader {

    /** Camel bean method. */
    public InboundBatch read(Exchange exchange) {
        RabbitMqDeliveries deliveries = RabbitMqDeliveries.of(exchange);
        List<InboundMessage> messages = new ArrayList<>(deliveries.messages().size());
        for (Message delivery : deliveries.messages()) {
            messages.add(inboundMessage(delivery));
        }
        return new InboundBatch(messages, deliveries::ack);
    }

    private static InboundMessage inboundMessage(Message delivery) {
        MessageProperties properties = delivery.getMessageProperties();
        String queue = properties.getConsumerQueue();
        List<MessageHeader> headers = new ArrayList<>();
        properties.getHeaders().forEach((name, value) -> headers.add(MessageHeader.amqp(name, value)));
        String messageId = properties.getMessageId();
        return new InboundMessage(
                Broker.RABBITMQ.scheme() + queue,
                queue,
                // one in a generated form is refused by validation; filed meanwhile under an id of its own
                messageId != null && !messageId.isBlank() && !GeneratedIds.isGenerated(messageId.strip()) ? messageId : GeneratedIds.rabbitMq(),
                null,
                headers,
                propertiesOf(properties),
                delivery.getBody(),
                properties.getReceivedRoutingKey());
    }

    private static Map<String, String> propertiesOf(MessageProperties p) {
        Map<String, String> kept = new LinkedHashMap<>();
        putIfPresent(kept, AmqpProperties.CONTENT_TYPE, p.getContentType());
        putIfPresent(kept, AmqpProperties.CONTENT_ENCODING, p.getContentEncoding());
        putIfPresent(kept, AmqpProperties.MESSAGE_ID, p.getMessageId());
        putIfPresent(kept, AmqpProperties.CORRELATION_ID, p.getCorrelationId());
        putIfPresent(kept, AmqpProperties.PRIORITY, p.getPriority());
        putIfPresent(kept, AmqpProperties.REPLY_TO, p.getReplyTo());
        putIfPresent(kept, AmqpProperties.TYPE, p.getType());
        putIfPresent(kept, AmqpProperties.APP_ID, p.getAppId());
        putIfPresent(kept, AmqpProperties.TIMESTAMP, p.getTimestamp() == null ? null : p.getTimestamp().toInstant());
        putIfPresent(kept, AmqpProperties.EXPIRATION, p.getExpiration());
        return kept;
    }

    private static void putIfPresent(Map<String, String> properties, String name, Object value) {
        if (value != null) {
            properties.put(name, value.toString());
        }
    }
}
