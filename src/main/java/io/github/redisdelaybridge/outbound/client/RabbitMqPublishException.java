package io.github.redisdelaybridge.outbound.client;

/** RabbitMQ did not take a message: it nacked it, or closed the channel over it (a return as unroutable is a {@link PermanentPublishFailure}). */
public final class RabbitMqPublishException extends Exception {

    public RabbitMqPublishException(String detail) {
        super(detail, null, false, false);
    }
}
