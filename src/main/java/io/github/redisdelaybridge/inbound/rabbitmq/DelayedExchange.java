package io.github.redisdelaybridge.inbound.rabbitmq;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.RoutingKeyPlaceholder;

/**
 * An exchange that stands in for one of the delayed-message-exchange plugin ({@code bridge.rabbitmq.delayed-exchanges}):
 * a durable fanout exchange the bridge declares and binds to an inbound queue of its own ({@link #queue()}). A message
 * published to it with {@code x-delay} goes, when due, to {@code targetExchange} with the routing key it was published
 * with: the queue's default target is {@code rabbitmq:<targetExchange>/{routing-key}}. Fanout, because the exchange only
 * collects: every message reaches the queue whatever its routing key, and the delivery keeps the key it was published
 * with, which the target exchange then routes by (topic, direct or headers, as the consumers bound to it expect).
 *
 * @param exchange       the exchange producers publish to, e.g. {@code orders.delayed}
 * @param targetExchange the exchange due messages go to, e.g. {@code orders}
 */
public record DelayedExchange(String exchange, String targetExchange) {

    /** Starts the name of every delayed exchange's queue, which ends with the exchange's name. */
    public static final String QUEUE_PREFIX = "redis-delay-bridge.delayed.";

    /** The durable queue that holds the exchange's messages until the bridge has stored them in Redis. */
    public String queue() {
        return QUEUE_PREFIX + exchange;
    }

    /** Where the queue's messages go when due. */
    public String defaultTarget() {
        return Broker.RABBITMQ.scheme() + targetExchange + "/" + RoutingKeyPlaceholder.PLACEHOLDER;
    }
}
