package io.github.redisdelaybridge.testkit;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A consumer of one queue, as a consumer application is: subscribed (pushed deliveries, auto-ack), recording each
 * delivery with the exchange and routing key it was published with and the local time it arrived.
 */
public final class RoutedDeliveries implements AutoCloseable {

    /** One delivery: how it was routed, what it carried, when it arrived here. */
    public record Delivery(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body, long receivedAtMs) {

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** A header's value as text, or null. */
        public String headerText(String name) {
            Object value = properties.getHeaders() == null ? null : properties.getHeaders().get(name);
            return value == null ? null : value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : value.toString();
        }
    }

    private final Connection connection;
    private final List<Delivery> deliveries = new ArrayList<>();

    /** Subscribes to an existing queue. */
    public RoutedDeliveries(String queue) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(RabbitMqTestClient.HOST);
        factory.setPort(RabbitMqTestClient.PORT);
        try {
            connection = factory.newConnection("redis-delay-bridge-test-consumer-" + queue);
            Channel channel = connection.createChannel();
            channel.basicConsume(queue, true, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    synchronized (deliveries) {
                        deliveries.add(new Delivery(envelope.getExchange(), envelope.getRoutingKey(), properties, body, System.currentTimeMillis()));
                        deliveries.notifyAll();
                    }
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException("could not subscribe to " + queue, e);
        }
    }

    /** The deliveries so far, once {@code count} arrived or {@code timeout} passed, and after {@code settle} more for any extra. */
    public List<Delivery> await(int count, Duration timeout, Duration settle) {
        return await(delivery -> true, count, timeout, settle);
    }

    /** As {@link #await(int, Duration, Duration)}, counting and returning only the deliveries {@code which} accepts. */
    public List<Delivery> await(Predicate<Delivery> which, int count, Duration timeout, Duration settle) {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        synchronized (deliveries) {
            try {
                while (deliveries.stream().filter(which).count() < count && System.currentTimeMillis() < deadline) {
                    deliveries.wait(Math.max(1, deadline - System.currentTimeMillis()));
                }
                long settleUntil = System.currentTimeMillis() + settle.toMillis();
                while (System.currentTimeMillis() < settleUntil) {
                    deliveries.wait(Math.max(1, settleUntil - System.currentTimeMillis()));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return deliveries.stream().filter(which).toList();
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
