package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A message as it arrived from any broker, before validation.
 *
 * @param origin           where it came from, e.g. {@code kafka:delay.inbound/0@42}
 * @param source           the inbound topic or queue, used to find its default target
 * @param defaultMessageId the id to use when the producer set no {@code x-message-id}
 * @param key              the Kafka record key, or null
 * @param headers          all headers in arrival order, values as raw bytes
 * @param properties       broker properties that are not headers (AMQP content-type and the like)
 * @param body             the payload, or null for a Kafka tombstone
 * @param routingKey       the routing key a RabbitMQ message was published with (what {@code {routing-key}} in its target
 *                         stands for), or null for a Kafka record
 */
public record InboundMessage(
        String origin,
        String source,
        String defaultMessageId,
        byte[] key,
        List<MessageHeader> headers,
        Map<String, String> properties,
        byte[] body,
        String routingKey) {

    /** A message without a routing key: a Kafka record, or one the admin API sends through again. */
    public InboundMessage(String origin, String source, String defaultMessageId, byte[] key, List<MessageHeader> headers,
                          Map<String, String> properties, byte[] body) {
        this(origin, source, defaultMessageId, key, headers, properties, body, null);
    }

    /** The last value of a header, as Kafka's {@code lastHeader} would pick it. */
    public Optional<MessageHeader> lastHeader(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                return Optional.of(headers.get(i));
            }
        }
        return Optional.empty();
    }

    /**
     * The id to file this message under even when it is rejected: the producer's x-message-id if it is
     * usable text not in a generated form ({@link GeneratedIds}), else the default id. A control message is always
     * filed under its default id: its x-message-id names the message it controls, whose records it must not replace.
     */
    public String idForRecords() {
        if (lastHeader(HeaderNames.CONTROL).isPresent()) {
            return defaultMessageId;
        }
        return lastHeader(HeaderNames.MESSAGE_ID)
                .map(MessageHeader::plainBytes) // a RabbitMQ header's text, not its AMQP encoding (type octet, length)
                .filter(v -> v != null && v.length > 0 && v.length <= HeaderNames.MAX_MESSAGE_ID_BYTES)
                .map(v -> new String(v, java.nio.charset.StandardCharsets.UTF_8).strip())
                .filter(id -> !id.isEmpty() && !id.contains("\uFFFD"))
                .filter(id -> !GeneratedIds.isGenerated(id)) // refused: it would file the dead letter under another's id
                .orElse(defaultMessageId);
    }

    /** Bytes this message takes: body, key and headers. */
    public long size() {
        long size = (body == null ? 0 : body.length) + (key == null ? 0 : key.length);
        for (MessageHeader header : headers) {
            size += header.name().length() + (header.value() == null ? 0 : header.value().length);
        }
        return size;
    }
}
