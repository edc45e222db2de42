package io.github.redisdelaybridge.outbound.client;

/** RabbitMQ did not take a message: it returned it as unroutable, nacked it, or closed the channel over it. */
public final class RabbitMqPublishException extends Exception {

    public RabbitMqPublishException(String detail) {
        super(detail, null, false, false);
    }
}
