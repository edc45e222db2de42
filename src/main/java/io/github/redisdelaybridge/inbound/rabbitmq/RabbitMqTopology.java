package io.github.redisdelaybridge.inbound.rabbitmq;

import com.rabbitmq.client.Channel;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.Connection;
import org.springframework.amqp.rabbit.connection.ConnectionListener;

/**
 * Declares what the bridge owns on RabbitMQ: its durable inbound queues, the fanout exchange bound to each
 * queue that has one, and the dead-letter queue when dead letters go to the default exchange. It runs
 * whenever the consumer opens a connection, before consuming starts, so the queues exist after a broker
 * restart or a deletion as well as on the first start (as Spring's RabbitAdmin does for its declarables).
 *
 * <p>The exchange is a fanout: a producer keeps its routing keys and changes only the exchange it
 * publishes to (one setting), whatever keys it used with the delayed-message plugin.
 */
public final class RabbitMqTopology implements ConnectionListener {

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqTopology.class);

    private final List<String> inboundQueues;
    private final Map<String, String> exchangeByQueue;
    private final String deadLetterQueue;

    /** {@code deadLetterQueue}: a queue to declare for dead letters, or null. */
    public RabbitMqTopology(List<String> inboundQueues, Map<String, String> exchangeByQueue, String deadLetterQueue) {
        this.inboundQueues = List.copyOf(inboundQueues);
        this.exchangeByQueue = Map.copyOf(exchangeByQueue);
        this.deadLetterQueue = deadLetterQueue;
    }

    @Override
    public void onCreate(Connection connection) {
        try (Channel channel = connection.createChannel(false)) {
            declare(channel);
        } catch (Exception e) {
            LOG.error("could not declare the bridge's RabbitMQ queues {} (consuming will fail until they exist): {}",
                    inboundQueues, e.toString());
        }
    }

    void declare(Channel channel) throws java.io.IOException {
        for (String queue : inboundQueues) {
            channel.queueDeclare(queue, true, false, false, null);
            String exchange = exchangeByQueue.get(queue);
            if (exchange != null) {
                channel.exchangeDeclare(exchange, "fanout", true);
                channel.queueBind(queue, exchange, "");
            }
        }
        if (deadLetterQueue != null) {
            channel.queueDeclare(deadLetterQueue, true, false, false, null);
        }
        LOG.info("declared RabbitMQ inbound queues {} (exchanges {}){}", inboundQueues, exchangeByQueue,
                deadLetterQueue == null ? "" : " and dead-letter queue " + deadLetterQueue);
    }
}
