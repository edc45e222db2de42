package io.github.redisdelaybridge.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Binary, versioned encoding of an {@link Envelope} for storage in Redis.
 *
 * <p>Layout (all integers big-endian; "bytes" = int32 length then the bytes, -1 for null; "text" =
 * bytes holding UTF-8):
 * <pre>
 *   int8  magic 0xDB
 *   int8  version (1 or 2)
 *   text  message id
 *   text  target
 *   text  origin
 *   bytes key (nullable)
 *   int32 header count, then per header:
 *           version 1: text name, bytes value (nullable)                      -- a raw (Kafka) header
 *           version 2: text name, int8 format (0 raw, 1 AMQP field value), bytes value (nullable)
 *   int32 property count, then per property: text name, text value
 *   bytes body (nullable: a Kafka tombstone)
 * </pre>
 * Version 2 adds the header format, so typed RabbitMQ headers ({@link MessageHeader.Format#AMQP}) keep
 * their types. The writer uses version 1 whenever every header is raw (all Kafka-origin messages), so
 * bridges that read only version 1 keep working on them during an upgrade; it reads both.
 *
 * <p>The payload is copied as bytes, so it comes out exactly as it went in. A reader refuses a version it
 * does not know rather than guessing, so a newer bridge's records are never mangled by an older one.
 */
public final class EnvelopeCodec {

    static final int MAGIC = 0xDB;
    static final int VERSION_RAW_HEADERS = 1;
    static final int VERSION_TYPED_HEADERS = 2;

    private EnvelopeCodec() {
    }

    public static byte[] encode(Envelope envelope) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream((envelope.body() == null ? 0 : envelope.body().length) + 128);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            boolean typed = envelope.headers().stream().anyMatch(h -> h.format() != MessageHeader.Format.RAW);
            out.writeByte(MAGIC);
            out.writeByte(typed ? VERSION_TYPED_HEADERS : VERSION_RAW_HEADERS);
            writeText(out, envelope.messageId());
            writeText(out, envelope.target());
            writeText(out, envelope.origin());
            writeBytes(out, envelope.key());
            out.writeInt(envelope.headers().size());
            for (MessageHeader header : envelope.headers()) {
                writeText(out, header.name());
                if (typed) {
                    out.writeByte(header.format().ordinal());
                }
                writeBytes(out, header.value());
            }
            out.writeInt(envelope.properties().size());
            for (Map.Entry<String, String> property : envelope.properties().entrySet()) {
                writeText(out, property.getKey());
                writeText(out, property.getValue());
            }
            writeBytes(out, envelope.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return buffer.toByteArray();
    }

    public static Envelope decode(byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded))) {
            int magic = in.readUnsignedByte();
            if (magic != MAGIC) {
                throw new IllegalArgumentException("not an envelope: first byte 0x" + Integer.toHexString(magic));
            }
            int version = in.readUnsignedByte();
            if (version != VERSION_RAW_HEADERS && version != VERSION_TYPED_HEADERS) {
                throw new IllegalArgumentException("unsupported envelope version " + version + " (this bridge reads "
                        + VERSION_RAW_HEADERS + " and " + VERSION_TYPED_HEADERS + ")");
            }
            String messageId = readText(in);
            String target = readText(in);
            String origin = readText(in);
            byte[] key = readBytes(in);
            int headerCount = readCount(in);
            List<MessageHeader> headers = new ArrayList<>(headerCount);
            for (int i = 0; i < headerCount; i++) {
                String name = readText(in);
                MessageHeader.Format format = version == VERSION_RAW_HEADERS ? MessageHeader.Format.RAW : readFormat(in);
                headers.add(new MessageHeader(name, readBytes(in), format));
            }
            int propertyCount = readCount(in);
            Map<String, String> properties = new LinkedHashMap<>();
            for (int i = 0; i < propertyCount; i++) {
                properties.put(readText(in), readText(in));
            }
            byte[] body = readBytes(in);
            if (in.available() != 0) {
                throw new IllegalArgumentException("corrupt envelope: trailing bytes");
            }
            return new Envelope(messageId, target, origin, key, headers, properties, body);
        } catch (IOException e) {
            throw new IllegalArgumentException("corrupt envelope: " + e.getMessage(), e);
        }
    }

    private static void writeText(DataOutputStream out, String text) throws IOException {
        writeBytes(out, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] bytes = readBytes(in);
        if (bytes == null) {
            throw new IOException("text field is null");
        }
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int length = in.readInt();
        if (length == -1) {
            return null;
        }
        if (length < 0 || length > in.available()) {
            throw new IOException("length " + length + " exceeds the remaining " + in.available() + " bytes");
        }
        return in.readNBytes(length);
    }

    private static MessageHeader.Format readFormat(DataInputStream in) throws IOException {
        int format = in.readUnsignedByte();
        if (format >= MessageHeader.Format.values().length) {
            throw new IOException("unknown header format " + format);
        }
        return MessageHeader.Format.values()[format];
    }

    private static int readCount(DataInputStream in) throws IOException {
        int count = in.readInt();
        if (count < 0 || count > in.available()) {
            throw new IOException("count " + count + " is impossible here");
        }
        return count;
    }
}
