package io.github.redisdelaybridge.message;

import java.util.List;

/**
 * Names under which a RabbitMQ message's properties are kept in {@link Envelope#properties()}, all as
 * text. They are published again on a RabbitMQ target and become {@code amqp-<name>} headers on a Kafka
 * target. Not kept: {@code delivery-mode} (the bridge always publishes persistent), {@code user-id}
 * (RabbitMQ refuses a user-id other than the publishing connection's user) and the deprecated
 * {@code cluster-id}.
 */
public final class AmqpProperties {

    public static final String CONTENT_TYPE = "content-type";
    public static final String CONTENT_ENCODING = "content-encoding";
    public static final String MESSAGE_ID = "message-id";
    public static final String CORRELATION_ID = "correlation-id";
    /** 0-255, as decimal text. */
    public static final String PRIORITY = "priority";
    public static final String REPLY_TO = "reply-to";
    public static final String TYPE = "type";
    public static final String APP_ID = "app-id";
    /** An ISO-8601 instant (AMQP timestamps have whole seconds). */
    public static final String TIMESTAMP = "timestamp";
    /** Per-message TTL in milliseconds, as the producer set it. */
    public static final String EXPIRATION = "expiration";

    /** All of them, in the order they are written as Kafka headers. */
    public static final List<String> ALL = List.of(CONTENT_TYPE, CONTENT_ENCODING, MESSAGE_ID, CORRELATION_ID, PRIORITY,
            REPLY_TO, TYPE, APP_ID, TIMESTAMP, EXPIRATION);

    /** Prefix of the Kafka header that carries a property on a Kafka target: {@code amqp-content-type}. */
    public static final String KAFKA_HEADER_PREFIX = "amqp-";

    private AmqpProperties() {
    }
}
