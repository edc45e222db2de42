package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.AmqpProperties;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The headers of a record the bridge produces to Kafka (a delivery or a dead letter): every header as
 * plain bytes ({@link MessageHeader#plainBytes()}: typed RabbitMQ values as text), followed by the kept
 * AMQP properties of a RabbitMQ-origin message as {@code amqp-<property>} text headers
 * ({@code amqp-content-type}, {@code amqp-correlation-id}, ...).
 */
public final class KafkaHeaderMapping {

    private KafkaHeaderMapping() {
    }

    public static List<MessageHeader> headers(List<MessageHeader> headers, Map<String, String> amqpProperties) {
        List<MessageHeader> plain = new ArrayList<>(headers.size() + amqpProperties.size());
        for (MessageHeader header : headers) {
            plain.add(header.format() == MessageHeader.Format.RAW ? header : new MessageHeader(header.name(), header.plainBytes()));
        }
        for (String property : AmqpProperties.ALL) {
            String value = amqpProperties.get(property);
            if (value != null) {
                plain.add(MessageHeader.text(AmqpProperties.KAFKA_HEADER_PREFIX + property, value));
            }
        }
        return plain;
    }
}
