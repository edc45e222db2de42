package io.github.redisdelaybridge.inbound;

/**
 * Tells the source broker that a batch is safely stored: a Kafka offset commit, a RabbitMQ ack.
 * Called only after Redis (and, for rejects, the dead-letter channel) has confirmed every message.
 */
@FunctionalInterface
public interface UpstreamAcknowledgement {

    void acknowledge() throws Exception;
}
