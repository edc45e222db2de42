package io.github.redisdelaybridge.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EnvelopeCodecTest {

    @Test
    void roundTripKeepsEveryField() {
        Envelope envelope = new Envelope("order-1", "kafka:orders.expired", "kafka:delay.inbound/0@42", bytes("key-1"),
                List.of(MessageHeader.text("trace", "abc"), MessageHeader.text("tenant", "t1")),
                Map.of("content-type", "application/json", "priority", "5"), bytes("{\"order\":1}"));

        assertThat(roundTrip(envelope)).isEqualTo(envelope);
    }

    @Test
    void roundTripOfNullKey() {
        Envelope decoded = roundTrip(envelope(null, List.of(), bytes("body")));

        assertThat(decoded.key()).isNull();
        assertThat(decoded.body()).isEqualTo(bytes("body"));
    }

    @Test
    void roundTripOfEmptyKeyIsNotConfusedWithNullKey() {
        assertThat(roundTrip(envelope(new byte[0], List.of(), bytes("body"))).key()).isEmpty();
    }

    @Test
    void roundTripOfEmptyBody() {
        assertThat(roundTrip(envelope(bytes("k"), List.of(), new byte[0])).body()).isEmpty();
    }

    @Test
    void roundTripOfNullBodyKeepsTheTombstone() {
        Envelope decoded = roundTrip(envelope(bytes("k"), List.of(), null));

        assertThat(decoded.body()).isNull();
        assertThat(decoded.key()).isEqualTo(bytes("k"));
    }

    @Test
    void roundTripOfEveryByteValueInKeyBodyAndHeader() {
        byte[] allBytes = new byte[256];
        for (int i = 0; i < 256; i++) {
            allBytes[i] = (byte) i;
        }
        byte[] reversed = reverse(allBytes);

        Envelope decoded = roundTrip(envelope(reversed, List.of(new MessageHeader("raw", allBytes)), allBytes));

        assertThat(decoded.key()).isEqualTo(reversed);
        assertThat(decoded.body()).isEqualTo(allBytes);
        assertThat(decoded.headers().get(0).value()).isEqualTo(allBytes);
    }

    @Test
    void roundTripOfLargeRandomBody() {
        byte[] body = new byte[1024 * 1024 + 3];
        new Random(7).nextBytes(body);

        assertThat(roundTrip(envelope(null, List.of(), body)).body()).isEqualTo(body);
    }

    @Test
    void roundTripKeepsNullHeaderValuesApartFromEmptyOnes() {
        List<MessageHeader> headers = List.of(new MessageHeader("none", null), new MessageHeader("empty", new byte[0]));

        List<MessageHeader> decoded = roundTrip(envelope(null, headers, bytes("b"))).headers();

        assertThat(decoded.get(0).value()).isNull();
        assertThat(decoded.get(1).value()).isEmpty();
    }

    @Test
    void roundTripKeepsRepeatedHeaderNamesInArrivalOrder() {
        List<MessageHeader> headers = List.of(
                MessageHeader.text("hop", "1"), MessageHeader.text("other", "x"),
                MessageHeader.text("hop", "2"), MessageHeader.text("hop", "3"));

        assertThat(roundTrip(envelope(null, headers, bytes("b"))).headers()).containsExactlyElementsOf(headers);
    }

    @Test
    void roundTripKeepsProperties() {
        Map<String, String> properties = Map.of("content-type", "text/plain; charset=utf-8", "", "empty name", "empty value", "");
        Envelope envelope = new Envelope("id", "kafka:t", "o", null, List.of(), properties, bytes("b"));

        assertThat(roundTrip(envelope).properties()).isEqualTo(properties);
    }

    @Test
    void roundTripOfUnicodeIdsTargetOriginAndHeaderNames() {
        Envelope envelope = new Envelope("заказ-7-注文-🚀", "kafka:t", "rabbitmq:queue-ü/1", null,
                List.of(MessageHeader.text("ключ-🔑", "значение")), Map.of("名前", "値 ✓"), bytes("b"));

        assertThat(roundTrip(envelope)).isEqualTo(envelope);
    }

    @Test
    void encodingStartsWithMagicAndVersion() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));

        assertThat(encoded[0]).isEqualTo((byte) 0xDB);
        assertThat(encoded[1]).isEqualTo((byte) 1);
    }

    @Test
    void rejectsWrongMagic() {
        byte[] encoded = validEncoding();
        encoded[0] = (byte) 0xDA;

        assertRejected(encoded, "not an envelope");
    }

    @Test
    void rejectsUnknownVersions() {
        for (int version : new int[] {0, 3, 255}) {
            byte[] encoded = validEncoding();
            encoded[1] = (byte) version;

            assertRejected(encoded, "unsupported envelope version " + version);
        }
    }

    @Test
    void rejectsEmptyInput() {
        assertRejected(new byte[0], "corrupt envelope");
    }

    @Test
    void rejectsEveryTruncation() {
        byte[] encoded = validEncoding();
        for (int length = 0; length < encoded.length; length++) {
            assertRejected(Arrays.copyOf(encoded, length), "");
        }
    }

    @Test
    void rejectsTrailingBytes() {
        byte[] encoded = validEncoding();

        assertRejected(Arrays.copyOf(encoded, encoded.length + 1), "trailing bytes");
    }

    @Test
    void rejectsNegativeLengthOtherThanNullMarker() {
        // magic, version, then a message id of length -2
        byte[] encoded = ByteBuffer.allocate(6).put((byte) 0xDB).put((byte) 1).putInt(-2).array();

        assertRejected(encoded, "length -2");
    }

    @Test
    void rejectsNullWhereTextIsRequired() {
        byte[] encoded = ByteBuffer.allocate(6).put((byte) 0xDB).put((byte) 1).putInt(-1).array();

        assertRejected(encoded, "text field is null");
    }

    @Test
    void rejectsImpossibleHeaderCount() {
        Envelope envelope = envelope(null, List.of(), new byte[0]);
        byte[] encoded = EnvelopeCodec.encode(envelope);
        // the header count directly follows id, target, origin (texts) and the null key
        int headerCountAt = 2 + textLength(envelope.messageId()) + textLength(envelope.target()) + textLength(envelope.origin()) + 4;
        ByteBuffer.wrap(encoded).putInt(headerCountAt, Integer.MAX_VALUE);

        assertRejected(encoded, "count " + Integer.MAX_VALUE);
    }

    @Test
    void randomlyDamagedInputDecodesOrFailsOnlyWithIllegalArgumentException() {
        byte[] valid = validEncoding();
        Random random = new Random(1234);
        int rejected = 0;
        for (int round = 0; round < 5_000; round++) {
            byte[] damaged = valid.clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            try {
                EnvelopeCodec.decode(damaged);
            } catch (IllegalArgumentException expected) {
                rejected++;
            }
        }
        assertThat(rejected).as("most damaged records must be refused").isGreaterThan(1_000);
    }

    private static void assertRejected(byte[] encoded, String messagePart) {
        assertThatThrownBy(() -> EnvelopeCodec.decode(encoded))
                .as("decoding %d bytes", encoded.length)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(messagePart);
    }

    private static byte[] validEncoding() {
        return EnvelopeCodec.encode(new Envelope("id-1", "kafka:t", "kafka:in/0@1", bytes("key"),
                List.of(MessageHeader.text("h", "v"), new MessageHeader("n", null)), Map.of("p", "q"), bytes("body")));
    }

    private static Envelope roundTrip(Envelope envelope) {
        return EnvelopeCodec.decode(EnvelopeCodec.encode(envelope));
    }

    private static Envelope envelope(byte[] key, List<MessageHeader> headers, byte[] body) {
        return new Envelope("id-1", "kafka:target", "kafka:in/0@1", key, headers, Map.of(), body);
    }

    private static int textLength(String text) {
        return 4 + text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static byte[] reverse(byte[] bytes) {
        byte[] reversed = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            reversed[i] = bytes[bytes.length - 1 - i];
        }
        return reversed;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
