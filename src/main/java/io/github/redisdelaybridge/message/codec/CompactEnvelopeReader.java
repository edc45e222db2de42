package io.github.redisdelaybridge.message.codec;

import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_HEADERS;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_KEY;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_ORIGIN_NUMBER;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_PROPERTIES;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_TOMBSTONE;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_TYPED_HEADERS;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads the wire form of envelope version 3 (layout in {@link EnvelopeCodec}), magic and version already checked. */
final class CompactEnvelopeReader {

    private static final int KNOWN_FLAGS = FLAG_KEY | FLAG_HEADERS | FLAG_TYPED_HEADERS | FLAG_PROPERTIES | FLAG_ORIGIN_NUMBER
            | FLAG_TOMBSTONE | EnvelopeCodec.FLAG_GROUPED;

    private CompactEnvelopeReader() {
    }

    static Envelope read(String messageId, EnvelopeInput in) {
        int flags = in.unsignedByte();
        if ((flags & ~KNOWN_FLAGS) != 0) {
            throw EnvelopeInput.corrupt("unknown flags 0x" + Integer.toHexString(flags & ~KNOWN_FLAGS));
        }
        String target = in.text();
        String originStem = in.text();
        String origin = new OriginParts(originStem, (flags & FLAG_ORIGIN_NUMBER) != 0 ? in.varint() : null).joined();
        byte[] key = (flags & FLAG_KEY) != 0 ? in.lengthPrefixedBytes() : null;
        List<MessageHeader> headers = (flags & FLAG_HEADERS) != 0 ? headers(in, (flags & FLAG_TYPED_HEADERS) != 0) : List.of();
        Map<String, String> properties = (flags & FLAG_PROPERTIES) != 0 ? properties(in) : Map.of();
        byte[] body;
        if ((flags & FLAG_TOMBSTONE) != 0) {
            if (in.remaining() != 0) {
                throw EnvelopeInput.corrupt("trailing bytes after a tombstone");
            }
            body = null;
        } else {
            body = in.rest();
        }
        return new Envelope(messageId, target, origin, key, headers, properties, body);
    }

    private static List<MessageHeader> headers(EnvelopeInput in, boolean typed) {
        int count = in.length();
        List<MessageHeader> headers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = in.text();
            MessageHeader.Format format = typed ? format(in.unsignedByte()) : MessageHeader.Format.RAW;
            headers.add(new MessageHeader(name, in.nullableBytes(), format));
        }
        return headers;
    }

    private static Map<String, String> properties(EnvelopeInput in) {
        int count = in.length();
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            properties.put(in.text(), in.text());
        }
        return properties;
    }

    private static MessageHeader.Format format(int ordinal) {
        if (ordinal >= MessageHeader.Format.values().length) {
            throw EnvelopeInput.corrupt("unknown header format " + ordinal);
        }
        return MessageHeader.Format.values()[ordinal];
    }
}
