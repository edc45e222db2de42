package io.github.redisdelaybridge.inbound.rabbitmq;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.util.List;
import org.apache.camel.Exchange;
import org.springframework.amqp.core.Message;
import org.springframework.amqp.rabbit.connection.ChannelProxy;

/**
 * A batch of deliveries taken together by one consumer, and the channel they came on: the only channel their delivery
 * tags mean anything on. One consumer handles its batches one after another, so when a batch is settled every earlier
 * delivery on its channel is settled already: one {@code basic.ack} (or {@code basic.nack}) with {@code multiple} set
 * and the batch's last tag settles exactly this batch.
 *
 * <p>The physical channel is taken from Spring's caching proxy as the batch arrives: after a lost connection the
 * proxy may stand for a new channel, where these tags are unknown (or name other messages). Once the physical channel
 * is closed an ack or nack fails, and RabbitMQ has requeued the deliveries itself.
 */
public record RabbitMqDeliveries(List<Message> messages, Channel channel, long lastDeliveryTag) {

    /** Where the consumer puts the batch on the Camel exchange it sends through the inbound route. */
    public static final String PROPERTY = RabbitMqDeliveries.class.getName();

    public static RabbitMqDeliveries of(List<Message> messages, Channel channel) {
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("an empty batch of deliveries");
        }
        long lastTag = messages.get(messages.size() - 1).getMessageProperties().getDeliveryTag();
        return new RabbitMqDeliveries(List.copyOf(messages), channel instanceof ChannelProxy proxy ? proxy.getTargetChannel() : channel, lastTag);
    }

    /** The batch of a route's exchange. */
    public static RabbitMqDeliveries of(Exchange exchange) {
        RabbitMqDeliveries deliveries = exchange.getProperty(PROPERTY, RabbitMqDeliveries.class);
        if (deliveries == null) {
            throw new IllegalStateException("not a RabbitMQ batch: no deliveries on the exchange");
        }
        return deliveries;
    }

    public void ack() throws IOException {
        channel.basicAck(lastDeliveryTag, true);
    }

    public void nackAndRequeue() throws IOException {
        channel.basicNack(lastDeliveryTag, true, true);
    }
}
