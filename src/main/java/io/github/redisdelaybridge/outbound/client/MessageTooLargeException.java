package io.github.redisdelaybridge.outbound.client;

/**
 * RabbitMQ refused a message as larger than its {@code max_message_size}: it closes the channel with
 * {@code PRECONDITION_FAILED (406)}, which fails every publish pending on that channel, but only those larger than the
 * size the broker named get this failure (permanent: the same message is refused again); the others get a retriable one.
 */
public final class MessageTooLargeException extends Exception {

    public MessageTooLargeException(String detail) {
        super(detail, null, false, false);
    }
}
