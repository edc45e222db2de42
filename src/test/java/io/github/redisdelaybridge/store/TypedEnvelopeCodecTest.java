package io.github.redisdelaybridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Envelope versions: 1 for raw (Kafka) headers only, 2 when a header is typed (RabbitMQ); both are read. */
class TypedEnvelopeCodecTest {

    @Test
    void typedHeadersUseVersionTwoAndRoundTrip() {
        Envelope envelope = new Envelope("id", "rabbitmq:/q", "rabbitmq:in", null,
                List.of(MessageHeader.amqp("n", 42), new MessageHeader("raw", new byte[] {1}), MessageHeader.amqp("v", null)),
                Map.of("content-type", "text/plain", "priority", "5"), new byte[] {0, (byte) 0xFF});

        byte[] encoded = EnvelopeCodec.encode(envelope);

        assertThat(encoded[1]).isEqualTo((byte) 2);
        Envelope decoded = EnvelopeCodec.decode(encoded);
        assertThat(decoded).isEqualTo(envelope);
        assertThat(decoded.headers().get(0).amqpValue()).isEqualTo(42);
        assertThat(decoded.headers().get(1).format()).isEqualTo(MessageHeader.Format.RAW);
    }

    @Test
    void rawHeadersOnlyStillUseVersionOneForBridgesThatReadOnlyIt() {
        Envelope envelope = new Envelope("id", "kafka:t", "kafka:in/0@1", new byte[] {9},
                List.of(new MessageHeader("a", null)), Map.of(), new byte[0]);

        byte[] encoded = EnvelopeCodec.encode(envelope);

        assertThat(encoded[1]).isEqualTo((byte) 1);
        assertThat(EnvelopeCodec.decode(encoded)).isEqualTo(envelope);
    }

    @Test
    void aVersionOneRecordWrittenByAnOlderBridgeIsRead() throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeByte(0xDB);
        out.writeByte(1);
        for (String text : new String[] {"old-id", "kafka:t", "kafka:in/0@7"}) {
            bytes(out, text.getBytes(StandardCharsets.UTF_8));
        }
        out.writeInt(-1);
        out.writeInt(1);
        bytes(out, "h".getBytes(StandardCharsets.UTF_8));
        bytes(out, "v".getBytes(StandardCharsets.UTF_8));
        out.writeInt(0);
        bytes(out, "body".getBytes(StandardCharsets.UTF_8));

        Envelope decoded = EnvelopeCodec.decode(buffer.toByteArray());

        assertThat(decoded.messageId()).isEqualTo("old-id");
        assertThat(decoded.headers()).containsExactly(MessageHeader.text("h", "v"));
        assertThat(decoded.body()).isEqualTo("body".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anUnknownHeaderFormatOrVersionIsRefused() {
        byte[] encoded = EnvelopeCodec.encode(new Envelope("id", "kafka:t", "o", null, List.of(MessageHeader.amqp("n", 1)),
                Map.of(), new byte[0]));
        int formatAt = 2 + (4 + 2) + (4 + 7) + (4 + 1) + 4 + 4 + (4 + 1);
        assertThat(encoded[formatAt]).isEqualTo((byte) 1);
        encoded[formatAt] = 7;
        assertThatThrownBy(() -> EnvelopeCodec.decode(encoded)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown header format 7");

        byte[] version3 = EnvelopeCodec.encode(new Envelope("id", "kafka:t", "o", null, List.of(), Map.of(), new byte[0]));
        version3[1] = 3;
        assertThatThrownBy(() -> EnvelopeCodec.decode(version3)).hasMessageContaining("unsupported envelope version 3");
    }

    private static void bytes(DataOutputStream out, byte[] bytes) throws IOException {
        out.writeInt(bytes.length);
        out.write(bytes);
    }
}
