package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.inbound.rabbitmq.DelayedExchange;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code bridge.rabbitmq.*} settings.
 *
 * @param enabled           consume the inbound queues and publish to {@code rabbitmq:} targets; off: Kafka only
 * @param host              one host, or a comma-separated list of {@code host[:port]} (the nodes of a cluster, tried in
 *                          order); a host without a port uses {@code port}
 * @param tls               null: plain AMQP; else TLS with these stores
 * @param verifyHostname    with TLS, whether the server certificate must name the host connected to
 * @param inboundQueues     durable queues the bridge declares and consumes
 * @param inboundExchanges  queue -> fanout exchange the bridge declares and binds to that queue
 * @param delayedExchanges  exchange -> target exchange: the bridge declares the first (fanout) and binds it to a queue of its
 *                          own; due messages go to the second with the routing key they were published with
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
        TlsStores tls,
        boolean verifyHostname,
        List<String> inboundQueues,
        Map<String, String> inboundExchanges,
        Map<String, String> delayedExchanges,
        Map<String, String> defaultTargets,
        int prefetch,
        int consumersPerQueue,
        int batchSize,
        long lingerMs,
        int storeAttempts,
        String deadLetterChannel) {

    public static final int MAX_PREFETCH = 1000;

    public RabbitMqSettings {
        parseAddresses(host, port); // refuses a bad host list at start
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
        if (enabled && inboundQueues.isEmpty() && delayedExchanges.isEmpty()) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.inbound-queues is empty (and so is bridge.rabbitmq.delayed-exchanges)");
        }
        DelayedExchangesCheck.check(delayedExchanges, inboundExchanges);
        for (String queue : inboundExchanges.keySet()) {
            if (!inboundQueues.contains(queue)) {
                throw new IllegalArgumentException("setting bridge.rabbitmq.inbound-exchanges names " + queue
                        + ", which is not in bridge.rabbitmq.inbound-queues");
            }
        }
    }

    /** One address per node: {@code host} and {@code port} from {@code host[:port]} ({@code [v6]:port} for IPv6). */
    public record Address(String host, int port) {
    }

    /** These settings connecting elsewhere, or as someone else (bin/publish's {@code --rabbitmq}); the rest unchanged. */
    public RabbitMqSettings withConnection(String host, int port, String username, String password, String virtualHost, TlsStores tls) {
        return new RabbitMqSettings(enabled, host, port, username, password, virtualHost, tls, verifyHostname, inboundQueues,
                inboundExchanges, delayedExchanges, defaultTargets, prefetch, consumersPerQueue, batchSize, lingerMs, storeAttempts, deadLetterChannel);
    }

    /** The delayed exchanges, in the order configured. */
    public List<DelayedExchange> delayedExchangeList() {
        return delayedExchanges.entrySet().stream().map(e -> new DelayedExchange(e.getKey(), e.getValue())).toList();
    }

    /** Every queue the bridge consumes: the inbound queues, then one per delayed exchange. */
    public List<String> consumedQueues() {
        List<String> queues = new ArrayList<>(inboundQueues);
        delayedExchangeList().forEach(delayed -> queues.add(delayed.queue()));
        return queues;
    }

    /** Queue -> the fanout exchange bound to it: the inbound exchanges and the delayed exchanges. */
    public Map<String, String> exchangeByQueue() {
        Map<String, String> exchanges = new LinkedHashMap<>(inboundExchanges);
        delayedExchangeList().forEach(delayed -> exchanges.put(delayed.queue(), delayed.exchange()));
        return exchanges;
    }

    /** Queue -> target of messages without {@code x-target}: the default targets and the delayed exchanges' queues. */
    public Map<String, String> defaultTargetByQueue() {
        Map<String, String> targets = new LinkedHashMap<>(defaultTargets);
        delayedExchangeList().forEach(delayed -> targets.put(delayed.queue(), delayed.defaultTarget()));
        return targets;
    }

    /** The nodes of {@code host}, in the order given. */
    public List<Address> addresses() {
        return parseAddresses(host, port);
    }

    private static List<Address> parseAddresses(String host, int port) {
        List<Address> addresses = new ArrayList<>();
        for (String entry : host.split(",")) {
            String text = entry.strip();
            if (text.isEmpty()) {
                continue;
            }
            int colon = text.lastIndexOf(':');
            boolean hasPort = colon > 0 && (text.indexOf(':') == colon || text.startsWith("[")) && !text.endsWith("]");
            String name = hasPort ? text.substring(0, colon) : text;
            int nodePort = port;
            if (hasPort) {
                try {
                    nodePort = Integer.parseInt(text.substring(colon + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("setting bridge.rabbitmq.host: bad port in '" + text + "'");
                }
            }
            if (name.startsWith("[") && name.endsWith("]")) {
                name = name.substring(1, name.length() - 1);
            }
            addresses.add(new Address(name, nodePort));
        }
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.host is empty");
        }
        return addresses;
    }

    /** Never the password. */
    @Override
    public String toString() {
        return "RabbitMQ " + username + "@" + addresses().stream().map(a -> a.host() + ":" + a.port()).toList()
                + " (virtual host " + virtualHost + (tls == null ? "" : ", " + tls) + ")";
    }
}
