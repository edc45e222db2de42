package io.github.redisdelaybridge.message;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A delayed message as it is kept in Redis: everything needed to publish it later, byte for byte.
 * Its due time and attempt count are not here: they change, and live in Redis structures of their own.
 *
 * @param messageId  identity of the delayed message (x-message-id, or derived from its origin)
 * @param target     where it goes when due, e.g. {@code kafka:orders.expired}
 * @param origin     where it came from, e.g. {@code kafka:delay.inbound/0@42}, for operators
 * @param key        the Kafka record key, or null
 * @param headers    user headers in arrival order, delay-control headers already removed
 * @param properties broker message properties that are not headers (AMQP content-type and the like)
 * @param body       the payload bytes, never re-encoded; null for a Kafka tombstone
 */
public record Envelope(
        String messageId,
        String target,
        String origin,
        byte[] key,
        List<MessageHeader> headers,
        Map<String, String> properties,
        byte[] body) {

    public Envelope {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(origin, "origin");
        headers = List.copyOf(headers);
        properties = Map.copyOf(properties);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Envelope e
                && messageId.equals(e.messageId) && target.equals(e.target) && origin.equals(e.origin)
                && Arrays.equals(key, e.key) && headers.equals(e.headers) && properties.equals(e.properties)
                && Arrays.equals(body, e.body);
    }

    @Override
    public int hashCode() {
        return Objects.hash(messageId, target, origin, Arrays.hashCode(key), headers, properties, Arrays.hashCode(body));
    }

    @Override
    public String toString() {
        return "Envelope[" + messageId + " -> " + target + ", " + (body == null ? "tombstone" : body.length + " bytes") + "]";
    }
}
