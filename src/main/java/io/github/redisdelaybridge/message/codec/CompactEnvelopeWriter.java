package io.github.redisdelaybridge.message.codec;

import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_HEADERS;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_KEY;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_ORIGIN_NUMBER;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_PROPERTIES;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_TOMBSTONE;
import static io.github.redisdelaybridge.message.codec.EnvelopeCodec.FLAG_TYPED_HEADERS;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.Map;

/** Writes the wire form of envelope version 3 (layout in {@link EnvelopeCodec}). */
final class CompactEnvelopeWriter {

    private CompactEnvelopeWriter() {
    }

    static byte[] write(Envelope envelope) {
        OriginParts origin = OriginParts.of(envelope.origin());
        boolean typed = envelope.headers().stream().anyMatch(h -> h.format() != MessageHeader.Format.RAW);
        int flags = (envelope.key() != null ? FLAG_KEY : 0)
                | (envelope.headers().isEmpty() ? 0 : FLAG_HEADERS)
                | (typed ? FLAG_TYPED_HEADERS : 0)
                | (envelope.properties().isEmpty() ? 0 : FLAG_PROPERTIES)
                | (origin.number() != null ? FLAG_ORIGIN_NUMBER : 0)
                | (envelope.body() == null ? FLAG_TOMBSTONE : 0)
                | (envelope.headers().stream().anyMatch(h -> h.name().equals(HeaderNames.GROUP)) ? EnvelopeCodec.FLAG_GROUPED : 0);

        EnvelopeOutput out = new EnvelopeOutput((envelope.body() == null ? 0 : envelope.body().length) + 64);
        out.writeByte(EnvelopeCodec.MAGIC);
        out.writeByte(EnvelopeCodec.VERSION_COMPACT);
        out.writeByte(flags);
        // Target and origin stem come first, so that Redis can swap them for codes without reading further.
        out.writeText(envelope.target());
        out.writeText(origin.stem());
        if (origin.number() != null) {
            out.writeVarint(origin.number());
        }
        if (envelope.key() != null) {
            out.writeLengthPrefixed(envelope.key());
        }
        if (!envelope.headers().isEmpty()) {
            out.writeVarint(envelope.headers().size());
            for (MessageHeader header : envelope.headers()) {
                out.writeText(header.name());
                if (typed) {
                    out.writeByte(header.format().ordinal());
                }
                out.writeNullable(header.value());
            }
        }
        if (!envelope.properties().isEmpty()) {
            out.writeVarint(envelope.properties().size());
            for (Map.Entry<String, String> property : envelope.properties().entrySet()) {
                out.writeText(property.getKey());
                out.writeText(property.getValue());
            }
        }
        if (envelope.body() != null) {
            out.writeRaw(envelope.body());
        }
        return out.toByteArray();
    }
}
