package io.github.redisdelaybridge.inbound.rabbitmq;

import org.springframework.amqp.core.Message;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.support.converter.MessageConversionException;
import org.springframework.amqp.support.converter.MessageConverter;

/**
 * Hands the inbound route the AMQP message itself as the exchange body. camel-spring-rabbitmq's default
 * converter turns a body with a {@code text/*} content type into a String in the platform charset, which
 * would not give back the producer's bytes.
 */
public final class RawMessageConverter implements MessageConverter {

    @Override
    public Message toMessage(Object body, MessageProperties properties) {
        if (body instanceof Message message) {
            return message;
        }
        throw new MessageConversionException("the bridge consumes RabbitMQ messages only; it publishes through its own publisher");
    }

    @Override
    public Object fromMessage(Message message) {
        return message;
    }
}
