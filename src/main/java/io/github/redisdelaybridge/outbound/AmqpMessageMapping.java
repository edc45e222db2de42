package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.HeaderNames;

import com.rabbitmq.client.AMQP;
import io.github.redisdelaybridge.message.AmqpProperties;
import io.github.redisdelaybridge.message.HeaderValueMapping;
import io.github.redisdelaybridge.message.MessageHeader;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The AMQP properties of a message the bridge publishes to RabbitMQ (a delivery or a dead letter):
 * headers with their AMQP types ({@link MessageHeader#amqpValue()}; a name repeated in a Kafka record
 * keeps its last value, as a header table holds each name once), the Kafka key as {@value HeaderNames#KAFKA_KEY}
 * (a string when it is UTF-8, else a byte array), the kept AMQP properties ({@link AmqpProperties}), and
 * persistent delivery mode.
 */
public final class AmqpMessageMapping {

    private static final int PERSISTENT = 2;

    private AmqpMessageMapping() {
    }

    public static AMQP.BasicProperties properties(List<MessageHeader> headers, Map<String, String> properties, byte[] kafkaKey) {
        Map<String, Object> table = new LinkedHashMap<>();
        if (kafkaKey != null) {
            table.put(HeaderNames.KAFKA_KEY, HeaderValueMapping.amqpValue(kafkaKey));
        }
        for (MessageHeader header : headers) {
            table.remove(header.name());
            table.put(header.name(), header.amqpValue());
        }
        String timestamp = properties.get(AmqpProperties.TIMESTAMP);
        String priority = properties.get(AmqpProperties.PRIORITY);
        return new AMQP.BasicProperties.Builder()
                .headers(table)
                .deliveryMode(PERSISTENT)
                .contentType(properties.get(AmqpProperties.CONTENT_TYPE))
                .contentEncoding(properties.get(AmqpProperties.CONTENT_ENCODING))
                .messageId(properties.get(AmqpProperties.MESSAGE_ID))
                .correlationId(properties.get(AmqpProperties.CORRELATION_ID))
                .priority(priority == null ? null : Integer.valueOf(priority))
                .replyTo(properties.get(AmqpProperties.REPLY_TO))
                .type(properties.get(AmqpProperties.TYPE))
                .appId(properties.get(AmqpProperties.APP_ID))
                .timestamp(timestamp == null ? null : Date.from(Instant.parse(timestamp)))
                .expiration(properties.get(AmqpProperties.EXPIRATION))
                .build();
    }
}
