package io.github.redisdelaybridge.config;

import java.util.List;
import java.util.Map;

/**
 * The {@code bridge.rabbitmq.*} settings.
 *
 * @param enabled           consume the inbound queues and publish to {@code rabbitmq:} targets; off: Kafka only
 * @param inboundQueues     durable queues the bridge declares and consumes
 * @param inboundExchanges  queue -> fanout exchange the bridge declares and binds to that queue
 * @param defaultTargets    queue -> target for messages without {@code x-target}
 * @param prefetch          unacknowledged deliveries per consumer (1 to {@value #MAX_PREFETCH})
 * @param consumersPerQueue consumers (channels), each reading every inbound queue
 * @param batchSize         deliveries stored and acked together (at most {@code prefetch})
 * @param lingerMs          longest wait for a batch to fill once it has a delivery
 * @param storeAttempts     tries to store a delivery in Redis before it is nacked with requeue
 * @param deadLetterChannel where dead letters of RabbitMQ-origin messages go, in target syntax:
 *                          {@code rabbitmq:<exchange>/<routing-key>}, {@code rabbitmq:/<queue>} or {@code kafka:<topic>}
 */
public record RabbitMqSettings(
        boolean enabled,
        String host,
        int port,
        String username,
        String password,
        String virtualHost,
        List<String> inboundQueues,
        Map<String, String> inboundExchanges,
        Map<String, String> defaultTargets,
        int prefetch,
        int consumersPerQueue,
        int batchSize,
        long lingerMs,
        int storeAttempts,
        String deadLetterChannel) {

    public static final int MAX_PREFETCH = 1000;

    public RabbitMqSettings {
        if (prefetch < 1 || prefetch > MAX_PREFETCH) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.prefetch must be 1 to " + MAX_PREFETCH + ", got " + prefetch);
        }
        if (consumersPerQueue < 1) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.consumers-per-queue must be at least 1");
        }
        if (batchSize < 1 || batchSize > prefetch) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.inbound-batch-size must be 1 to bridge.rabbitmq.prefetch ("
                    + prefetch + "), got " + batchSize);
        }
        if (storeAttempts < 1) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.store-attempts must be at least 1");
        }
        if (enabled && inboundQueues.isEmpty()) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.inbound-queues is empty");
        }
        for (String queue : inboundExchanges.keySet()) {
            if (!inboundQueues.contains(queue)) {
                throw new IllegalArgumentException("setting bridge.rabbitmq.inbound-exchanges names " + queue
                        + ", which is not in bridge.rabbitmq.inbound-queues");
            }
        }
    }

    @Override
    public String toString() {
        return "RabbitMQ " + username + "@" + host + ":" + port + " (virtual host " + virtualHost + ")";
    }
}
