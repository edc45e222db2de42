package io.github.redisdelaybridge.inbound.rabbitmq;

import io.github.redisdelaybridge.message.Failures;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The failure path of the RabbitMQ inbound route: whatever went wrong (Redis unavailable, the
 * dead-letter channel unavailable, a bug), the delivery is nacked with requeue, so RabbitMQ delivers it
 * again. In manual-ack mode a delivery that is neither acked nor nacked would sit unacked until the
 * consumer stops, so this never throws: if the nack itself fails, the delivery's channel is gone and
 * RabbitMQ has already requeued the delivery.
 */
public final class RabbitMqDeliveryRequeuer {

    private static final Logger LOG = LoggerFactory.getLogger(RabbitMqDeliveryRequeuer.class);
    private static final long LOG_EVERY_MS = 10_000;

    private volatile long lastLoggedAt;

    /** Camel bean method, called with the failed exchange. */
    public void requeue(Exchange exchange) {
        Exception cause = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
        long now = System.currentTimeMillis();
        if (now - lastLoggedAt >= LOG_EVERY_MS) {
            lastLoggedAt = now;
            LOG.warn("RabbitMQ delivery not stored, requeued for redelivery (further requeues logged at most every {} s): {}",
                    LOG_EVERY_MS / 1000, cause == null ? "unknown failure" : Failures.rootMessage(cause));
        }
        try {
            RabbitMqDelivery.of(exchange).nackAndRequeue();
        } catch (Exception nackFailed) {
            LOG.warn("could not nack a delivery ({}); its channel is closed, so RabbitMQ has requeued it by itself",
                    Failures.rootMessage(nackFailed));
        }
    }
}
