package io.github.redisdelaybridge.inbound.rabbitmq;

import io.github.redisdelaybridge.message.Failures;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure path of the RabbitMQ inbound route: whatever went wrong (Redis unavailable, the
 * dead-letter channel unavailable, a bug), the batch is nacked with requeue, so RabbitMQ delivers it
 * again. In manual-ack mode a delivery that is neither acked nor nacked would sit unacked until the
 * consumer stops, so this never throws: if the nack itself fails, the channel is gone and RabbitMQ has
 * already requeued the deliveries.
 */
public final class RabbitMqBatchRequeuer {

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqBatchRequeuer.class);
    private static final long LOG_EVERY_MS = 10_000;

    private volatile long lastLoggedAt;

    /** Camel bean method, called with the failed exchange. */
    public void requeue(Exchange exchange) {
        Exception cause = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
        long now = System.currentTimeMillis();
        if (now - lastLoggedAt >= LOG_EVERY_MS) {
            lastLoggedAt = now;
            LOG.warn("RabbitMQ deliveries not stored, requeued for redelivery (further requeues logged at most every {} s): {}",
                    LOG_EVERY_MS / 1000, cause == null ? "unknown failure" : Failures.rootMessage(cause));
        }
        nackQuietly(RabbitMqDeliveries.of(exchange));
    }

    /** Nacks the batch with requeue; never throws. */
    static void nackQuietly(RabbitMqDeliveries deliveries) {
        try {
            deliveries.nackAndRequeue();
        } catch (Exception nackFailed) {
            LOG.warn("could not nack {} deliveries ({}); their channel is closed, so RabbitMQ has requeued them by itself",
                    deliveries.messages().size(), Failures.rootMessage(nackFailed));
        }
    }
}
