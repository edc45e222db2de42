package io.github.redisdelaybridge.message.codec;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Envelopes as the bridge wrote them before version 3: version 1 when every header is raw, version 2 when a
 * header is typed, the message id inside. Such records are still in Redis after an upgrade, so tests make
 * them with this (the production code only reads them).
 */
public final class PreviousReleaseEnvelopes {

    private PreviousReleaseEnvelopes() {
    }

    public static byte[] encode(Envelope envelope) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            boolean typed = envelope.headers().stream().anyMatch(h -> h.format() != MessageHeader.Format.RAW);
            out.writeByte(0xDB);
            out.writeByte(typed ? 2 : 1);
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

    private static void writeText(DataOutputStream out, String text) throws IOException {
        writeBytes(out, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream out, byte[] bytes) throws IOException {
        if (bytes == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(bytes.length);
            out.write(bytes);
        }
    }
}
