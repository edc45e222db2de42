package io.github.redisdelaybridge.message.codec;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads envelope versions 1 and 2 (their layout, and when this class can go: docs/storage-formats.md).
 */
final class LegacyEnvelopeReader {

    private LegacyEnvelopeReader() {
    }

    /**
     * @param messageId the id the caller knows the record by; the copy inside the record is redundant (it is
     *                  the hash field the record is stored under) and is read past
     */
    static Envelope read(String messageId, int version, byte[] encoded) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded, 2, encoded.length - 2))) {
            readText(in);
            String target = readText(in);
            String origin = readText(in);
            byte[] key = readBytes(in);
            int headerCount = readCount(in);
            List<MessageHeader> headers = new ArrayList<>(headerCount);
            for (int i = 0; i < headerCount; i++) {
                String name = readText(in);
                MessageHeader.Format format = version == EnvelopeCodec.VERSION_RAW_HEADERS ? MessageHeader.Format.RAW : readFormat(in);
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

    private static String readText(DataInputStream in) throws IOException {
        byte[] bytes = readBytes(in);
        if (bytes == null) {
            throw new IOException("text field is null");
        }
        return new String(bytes, StandardCharsets.UTF_8);
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
