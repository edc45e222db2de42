package io.github.redisdelaybridge.message;

import com.rabbitmq.client.impl.ValueReader;
import com.rabbitmq.client.impl.ValueWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Encodes one RabbitMQ header value in the AMQP 0-9-1 field-value format (a type octet, then the value,
 * exactly as it travels inside a header table), so a typed header survives storage in Redis unchanged:
 * an int stays an int, a long string keeps its raw bytes, a nested table stays a table.
 *
 * <p>The RabbitMQ Java client's own reader and writer do the work, so the bytes are what that client
 * puts on the wire. Its reader only reads whole tables, so a value is decoded as the single entry of a
 * one-entry table built around it.
 */
public final class AmqpFieldValues {

    private static final String ENTRY = "v";

    private AmqpFieldValues() {
    }

    /** The field-value bytes of a value the RabbitMQ client accepts in a header table (null becomes void). */
    public static byte[] encode(Object value) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            new ValueWriter(out).writeFieldValue(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException unsupported) {
            throw new IllegalArgumentException("not an AMQP header value: " + value.getClass().getName(), unsupported);
        }
        return buffer.toByteArray();
    }

    /** The value back, typed as the RabbitMQ client reads it (a long string as LongString, a table as Map, ...). */
    public static Object decode(byte[] fieldValue) {
        byte[] name = ENTRY.getBytes(StandardCharsets.US_ASCII);
        ByteBuffer table = ByteBuffer.allocate(4 + 1 + name.length + fieldValue.length);
        table.putInt(1 + name.length + fieldValue.length).put((byte) name.length).put(name).put(fieldValue);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(table.array()))) {
            return new ValueReader(in).readTable().get(ENTRY);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("corrupt AMQP field value: " + e.getMessage(), e);
        }
    }
}
