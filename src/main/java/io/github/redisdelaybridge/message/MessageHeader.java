package io.github.redisdelaybridge.message;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One message header as it arrived: a name and its value bytes, in one of two formats.
 * <ul>
 *   <li>{@link Format#RAW}: a Kafka header, the producer's bytes (null when the producer sent none);</li>
 *   <li>{@link Format#AMQP}: a RabbitMQ header, its typed value as an AMQP field value
 *       ({@link AmqpFieldValues}), so it is published to RabbitMQ again with the same type and bytes.</li>
 * </ul>
 * {@link #plainBytes()} and {@link #amqpValue()} give the value as the other broker carries it; the
 * rules are in {@link HeaderValueMapping}.
 */
public record MessageHeader(String name, byte[] value, Format format) {

    public enum Format {
        /** Raw bytes, as Kafka carries header values. */
        RAW,
        /** An AMQP 0-9-1 field value: type octet, then the value. Never null (a void value is type 'V'). */
        AMQP
    }

    /** A raw (Kafka) header. */
    public MessageHeader(String name, byte[] value) {
        this(name, value, Format.RAW);
    }

    public static MessageHeader text(String name, String value) {
        return new MessageHeader(name, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    /** A RabbitMQ header with its typed value, as the RabbitMQ client delivers it. */
    public static MessageHeader amqp(String name, Object value) {
        return new MessageHeader(name, AmqpFieldValues.encode(value), Format.AMQP);
    }

    /** The value as a Kafka header carries it: plain bytes (text for typed AMQP values), or null. */
    public byte[] plainBytes() {
        return format == Format.RAW ? value : HeaderValueMapping.plainBytes(AmqpFieldValues.decode(value));
    }

    /** The value as a RabbitMQ header carries it, typed; null for a Kafka header without a value. */
    public Object amqpValue() {
        return format == Format.AMQP ? AmqpFieldValues.decode(value) : HeaderValueMapping.amqpValue(value);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MessageHeader h && name.equals(h.name) && Arrays.equals(value, h.value) && format == h.format;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * name.hashCode() + Arrays.hashCode(value)) + format.hashCode();
    }

    @Override
    public String toString() {
        return name + "=" + (value == null ? "null" : value.length + " bytes") + (format == Format.AMQP ? " (amqp)" : "");
    }
}
