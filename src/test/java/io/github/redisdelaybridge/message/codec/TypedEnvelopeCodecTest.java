package io.github.redisdelaybridge.message.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Typed (RabbitMQ) headers keep their format: version 3 with its typed-headers flag, a format byte per header only
 * when a header is typed.
 */
class TypedEnvelopeCodecTest {

    private static final Envelope TYPED = new Envelope("id", "rabbitmq:/q", "rabbitmq:in", null,
            List.of(MessageHeader.amqp("n", 42), new MessageHeader("raw", new byte[] {1}), MessageHeader.amqp("v", null)),
            Map.of("content-type", "text/plain", "priority", "5"), new byte[] {0, (byte) 0xFF});

    @Test
    void typedHeadersRoundTripInVersionThree() {
        byte[] encoded = EnvelopeCodec.encode(TYPED);

        assertThat(encoded[1]).isEqualTo((byte) 3);
        Envelope decoded = EnvelopeCodec.decode("id", encoded);
        assertThat(decoded).isEqualTo(TYPED);
        assertThat(decoded.headers().get(0).amqpValue()).isEqualTo(42);
        assertThat(decoded.headers().get(1).format()).isEqualTo(MessageHeader.Format.RAW);
    }

    @Test
    void rawHeadersOnlyCarryNoFormatBytes() {
        Envelope envelope = new Envelope("id", "kafka:t", "kafka:in/0@1", new byte[] {9},
                List.of(new MessageHeader("a", null)), Map.of(), new byte[0]);
        Envelope typed = new Envelope("id", "kafka:t", "kafka:in/0@1", new byte[] {9},
                List.of(new MessageHeader("a", null, MessageHeader.Format.AMQP)), Map.of(), new byte[0]);

        byte[] encoded = EnvelopeCodec.encode(envelope);

        assertThat(encoded).hasSize(EnvelopeCodec.encode(typed).length - 1);
        assertThat(EnvelopeCodec.decode("id", encoded)).isEqualTo(envelope);
    }

    @Test
    void anEnvelopeOfAnotherLayoutUnderMagicAndVersionOneIsRefusedNotGuessedAt() throws IOException {
        // 0xDB, version 1, then int32-length texts: only version 3 is read, whatever follows another version byte
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeByte(0xDB);
        out.writeByte(1);
        for (String text : new String[] {"old-id", "kafka:t", "kafka:in/0@7"}) {
            bytes(out, text.getBytes(StandardCharsets.UTF_8));
        }

        assertThatThrownBy(() -> EnvelopeCodec.decode("old-id", buffer.toByteArray())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unsupported envelope version 1 (this bridge reads 3)");
    }

    @Test
    void anUnknownHeaderFormatIsRefused() {
        Envelope envelope = new Envelope("id", "kafka:t", "o", null, List.of(MessageHeader.amqp("n", 1)), Map.of(), new byte[0]);

        byte[] version3 = EnvelopeCodec.encode(envelope);
        // magic, version, flags, target (1 + 7), origin stem (1 + 1), header count, header name (1 + 1), then the format
        int formatAt = 3 + (1 + 7) + (1 + 1) + 1 + (1 + 1);
        assertThat(version3[formatAt]).isEqualTo((byte) 1);
        version3[formatAt] = 7;
        assertThatThrownBy(() -> EnvelopeCodec.decode("id", version3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown header format 7");
    }

    @Test
    void aVersionFromTheFutureIsRefused() {
        byte[] encoded = EnvelopeCodec.encode(new Envelope("id", "kafka:t", "o", null, List.of(), Map.of(), new byte[0]));
        encoded[1] = 4;

        assertThatThrownBy(() -> EnvelopeCodec.decode("id", encoded)).hasMessageContaining("unsupported envelope version 4");
    }

    private static void bytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
