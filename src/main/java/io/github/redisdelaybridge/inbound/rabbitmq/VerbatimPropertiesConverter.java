package io.github.redisdelaybridge.inbound.rabbitmq;

import com.rabbitmq.client.AMQP.BasicProperties;
import com.rabbitmq.client.Envelope;
import java.util.Map;
import org.springframework.amqp.core.MessageDeliveryMode;
import org.springframework.amqp.core.MessageProperties;
import org.springframework.amqp.rabbit.support.DefaultMessagePropertiesConverter;
import org.springframework.amqp.rabbit.support.MessagePropertiesConverter;

/**
 * Copies a delivery's AMQP properties into Spring's MessageProperties without interpreting the headers.
 * Spring's default converter would turn long strings into Strings (or streams, over 1 KiB), drop a
 * non-numeric {@code x-delay} header and replace a numeric one by its absolute value (it serves the
 * delayed-message-exchange plugin's contract, not ours): a negative delay would pass validation.
 */
public final class VerbatimPropertiesConverter implements MessagePropertiesConverter {

    private final MessagePropertiesConverter outbound = new DefaultMessagePropertiesConverter();

    @Override
    public MessageProperties toMessageProperties(BasicProperties source, Envelope envelope, String charset) {
        MessageProperties target = new MessageProperties();
        Map<String, Object> headers = source.getHeaders();
        if (headers != null) {
            headers.forEach(target::setHeader);
        }
        target.setContentType(source.getContentType());
        target.setContentEncoding(source.getContentEncoding());
        target.setMessageId(source.getMessageId());
        target.setCorrelationId(source.getCorrelationId());
        target.setPriority(source.getPriority());
        target.setReplyTo(source.getReplyTo());
        target.setType(source.getType());
        target.setAppId(source.getAppId());
        target.setTimestamp(source.getTimestamp());
        target.setExpiration(source.getExpiration());
        target.setReceivedUserId(source.getUserId());
        target.setClusterId(source.getClusterId());
        target.setDeliveryMode(null);
        if (source.getDeliveryMode() != null) {
            target.setReceivedDeliveryMode(MessageDeliveryMode.fromInt(source.getDeliveryMode()));
        }
        if (envelope != null) {
            target.setReceivedExchange(envelope.getExchange());
            target.setReceivedRoutingKey(envelope.getRoutingKey());
            target.setRedelivered(envelope.isRedeliver());
            target.setDeliveryTag(envelope.getDeliveryTag());
        }
        return target;
    }

    @Override
    public BasicProperties fromMessageProperties(MessageProperties source, String charset) {
        return outbound.fromMessageProperties(source, charset);
    }
}
