package io.github.redisdelaybridge.inbound.rabbitmq;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import org.apache.camel.Exchange;
import org.apache.camel.component.springrabbit.SpringRabbitMQConstants;
import org.springframework.amqp.rabbit.connection.ChannelProxy;

/**
 * The channel a delivery came on and its delivery tag, the only pair an ack or nack may use.
 *
 * <p>camel-spring-rabbitmq hands the route a caching channel proxy. After a lost connection Spring reuses
 * that proxy for a new consumer, on a new channel; an ack through it with the old delivery tag would hit
 * the new channel, where the tag is unknown (the channel closes with 406) or, worse, names another
 * message. So the physical channel is taken from the proxy as the delivery arrives and kept on the
 * exchange: once that channel is closed an ack or nack fails, and RabbitMQ has requeued the delivery.
 */
public record RabbitMqDelivery(Channel channel, long deliveryTag) {

    private static final String PROPERTY = RabbitMqDelivery.class.getName();

    /** The delivery of a RabbitMQ exchange; the first call pins its physical channel. */
    public static RabbitMqDelivery of(Exchange exchange) {
        RabbitMqDelivery pinned = exchange.getProperty(PROPERTY, RabbitMqDelivery.class);
        if (pinned == null) {
            Channel channel = exchange.getProperty(SpringRabbitMQConstants.CHANNEL, Channel.class);
            Long deliveryTag = exchange.getMessage().getHeader(SpringRabbitMQConstants.DELIVERY_TAG, Long.class);
            if (channel == null || deliveryTag == null) {
                throw new IllegalStateException("not a RabbitMQ delivery: no channel or delivery tag on the exchange");
            }
            pinned = new RabbitMqDelivery(channel instanceof ChannelProxy proxy ? proxy.getTargetChannel() : channel, deliveryTag);
            exchange.setProperty(PROPERTY, pinned);
        }
        return pinned;
    }

    public void ack() throws IOException {
        channel.basicAck(deliveryTag, false);
    }

    public void nackAndRequeue() throws IOException {
        channel.basicNack(deliveryTag, false, true);
    }
}
