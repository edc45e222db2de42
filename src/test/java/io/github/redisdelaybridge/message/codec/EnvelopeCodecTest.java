package io.github.redisdelaybridge.message.codec;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Round trips through the current writer (version 3) and through the previous release's (versions 1 and 2,
 * whose records are still in Redis after an upgrade and must still be read), and what is refused.
 */
class EnvelopeCodecTest {

    enum Writer {
        CURRENT {
            @Override
            byte[] encode(Envelope envelope) {
                return EnvelopeCodec.encode(envelope);
            }
        },
        PREVIOUS_RELEASE {
            @Override
            byte[] encode(Envelope envelope) {
                return PreviousReleaseEnvelopes.encode(envelope);
            }
        };

        abstract byte[] encode(Envelope envelope);

        Envelope roundTrip(Envelope envelope) {
            return EnvelopeCodec.decode(envelope.messageId(), encode(envelope));
        }
    }

    // --- round trips, both writers ---------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripKeepsEveryField(Writer writer) {
        Envelope envelope = new Envelope("order-1", "kafka:orders.expired", "kafka:delay.inbound/0@42", bytes("key-1"),
                List.of(MessageHeader.text("trace", "abc"), MessageHeader.text("tenant", "t1")),
                Map.of("content-type", "application/json", "priority", "5"), bytes("{\"order\":1}"));

        assertThat(writer.roundTrip(envelope)).isEqualTo(envelope);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfNullKey(Writer writer) {
        Envelope decoded = writer.roundTrip(envelope(null, List.of(), bytes("body")));

        assertThat(decoded.key()).isNull();
        assertThat(decoded.body()).isEqualTo(bytes("body"));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfEmptyKeyIsNotConfusedWithNullKey(Writer writer) {
        assertThat(writer.roundTrip(envelope(new byte[0], List.of(), bytes("body"))).key()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfEmptyBody(Writer writer) {
        assertThat(writer.roundTrip(envelope(bytes("k"), List.of(), new byte[0])).body()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfNullBodyKeepsTheTombstone(Writer writer) {
        Envelope decoded = writer.roundTrip(envelope(bytes("k"), List.of(), null));

        assertThat(decoded.body()).isNull();
        assertThat(decoded.key()).isEqualTo(bytes("k"));
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfATombstoneWithoutKeyOrHeaders(Writer writer) {
        Envelope tombstone = envelope(null, List.of(), null);

        assertThat(writer.roundTrip(tombstone)).isEqualTo(tombstone);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfEveryByteValueInKeyBodyAndHeader(Writer writer) {
        byte[] allBytes = new byte[256];
        for (int i = 0; i < 256; i++) {
            allBytes[i] = (byte) i;
        }
        byte[] reversed = reverse(allBytes);

        Envelope decoded = writer.roundTrip(envelope(reversed, List.of(new MessageHeader("raw", allBytes)), allBytes));

        assertThat(decoded.key()).isEqualTo(reversed);
        assertThat(decoded.body()).isEqualTo(allBytes);
        assertThat(decoded.headers().get(0).value()).isEqualTo(allBytes);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfLargeRandomBodyKeyAndHeader(Writer writer) {
        Random random = new Random(7);
        byte[] body = new byte[1024 * 1024 + 3];
        byte[] key = new byte[70_000];
        byte[] header = new byte[20_000];
        random.nextBytes(body);
        random.nextBytes(key);
        random.nextBytes(header);

        Envelope decoded = writer.roundTrip(envelope(key, List.of(new MessageHeader("big", header)), body));

        assertThat(decoded.body()).isEqualTo(body);
        assertThat(decoded.key()).isEqualTo(key);
        assertThat(decoded.headers().get(0).value()).isEqualTo(header);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripKeepsNullHeaderValuesApartFromEmptyOnes(Writer writer) {
        List<MessageHeader> headers = List.of(new MessageHeader("none", null), new MessageHeader("empty", new byte[0]));

        List<MessageHeader> decoded = writer.roundTrip(envelope(null, headers, bytes("b"))).headers();

        assertThat(decoded.get(0).value()).isNull();
        assertThat(decoded.get(1).value()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripKeepsRepeatedHeaderNamesInArrivalOrder(Writer writer) {
        List<MessageHeader> headers = List.of(
                MessageHeader.text("hop", "1"), MessageHeader.text("other", "x"),
                MessageHeader.text("hop", "2"), MessageHeader.text("hop", "3"));

        assertThat(writer.roundTrip(envelope(null, headers, bytes("b"))).headers()).containsExactlyElementsOf(headers);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripKeepsProperties(Writer writer) {
        Map<String, String> properties = Map.of("content-type", "text/plain; charset=utf-8", "", "empty name", "empty value", "");
        Envelope envelope = new Envelope("id", "kafka:t", "o", null, List.of(), properties, bytes("b"));

        assertThat(writer.roundTrip(envelope).properties()).isEqualTo(properties);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripOfUnicodeIdsTargetOriginAndHeaderNames(Writer writer) {
        Envelope envelope = new Envelope("заказ-7-注文-🚀", "kafka:t", "rabbitmq:queue-ü/1", null,
                List.of(MessageHeader.text("ключ-🔑", "значение")), Map.of("名前", "値 ✓"), bytes("b"));

        assertThat(writer.roundTrip(envelope)).isEqualTo(envelope);
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void roundTripKeepsOriginsWithAndWithoutATrailingNumber(Writer writer) {
        for (String origin : List.of("kafka:delay.inbound/0@42", "kafka:t/3@0", "kafka:t/3@9223372036854775807", "rabbitmq:orders",
                "rabbitmq:q-007", "", "0", "redis")) {
            Envelope envelope = new Envelope("id", "kafka:t", origin, null, List.of(), Map.of(), bytes("b"));

            assertThat(writer.roundTrip(envelope).origin()).as(origin).isEqualTo(origin);
        }
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void randomlyDamagedInputDecodesOrFailsOnlyWithIllegalArgumentException(Writer writer) {
        byte[] valid = writer.encode(new Envelope("id-1", "kafka:t", "kafka:in/0@1", bytes("key"),
                List.of(MessageHeader.text("h", "v"), new MessageHeader("n", null), MessageHeader.amqp("typed", 5)),
                Map.of("p", "q"), bytes("body")));
        Random random = new Random(1234);
        int rejected = 0;
        for (int round = 0; round < 5_000; round++) {
            byte[] damaged = valid.clone();
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                damaged[random.nextInt(damaged.length)] = (byte) random.nextInt(256);
            }
            try {
                EnvelopeCodec.decode("id-1", damaged);
            } catch (IllegalArgumentException expected) {
                rejected++;
            }
        }
        assertThat(rejected).as("most damaged records must be refused").isGreaterThan(1_000);
    }

    // --- version 3 ---------------------------------------------------------------------------------------------

    @Test
    void encodingStartsWithMagicVersionAndFlags() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));

        assertThat(encoded[0]).isEqualTo((byte) 0xDB);
        assertThat(encoded[1]).isEqualTo((byte) 3);
        assertThat(encoded[2]).as("only: the origin ends in a number").isEqualTo((byte) EnvelopeCodec.FLAG_ORIGIN_NUMBER);
    }

    @Test
    void theMessageIdIsNotEncodedAndIsTheCallers() {
        Envelope envelope = new Envelope("order-12345-timeout", "kafka:t", "kafka:in/0@1", null, List.of(), Map.of(), bytes("b"));

        byte[] encoded = EnvelopeCodec.encode(envelope);

        assertThat(new String(encoded, StandardCharsets.ISO_8859_1)).doesNotContain("order-12345-timeout");
        assertThat(EnvelopeCodec.decode("order-12345-timeout", encoded)).isEqualTo(envelope);
        assertThat(EnvelopeCodec.decode("another-id", encoded).messageId()).isEqualTo("another-id");
    }

    @Test
    void aKafkaMessageWithoutKeyOrHeadersCostsItsBodyTargetOriginStemAndSixBytes() {
        // header 3, target and stem lengths 1 each, offset 12345 as a varint 2; no key, header or property counts,
        // no body length: the body is what is left
        byte[] body = new byte[100];
        Envelope envelope = new Envelope("delay.inbound-0-12345", "kafka:t", "kafka:in/0@12345", null, List.of(), Map.of(), body);

        byte[] encoded = EnvelopeCodec.encode(envelope);

        assertThat(encoded).hasSize(3 + 1 + "kafka:t".length() + 1 + "kafka:in/0@".length() + 2 + body.length);
    }

    @Test
    void typedHeaderFormatBytesAppearOnlyWhenAHeaderIsTyped() {
        byte[] raw = EnvelopeCodec.encode(envelope(null, List.of(MessageHeader.text("h", "v")), bytes("b")));
        byte[] typed = EnvelopeCodec.encode(envelope(null, List.of(MessageHeader.amqp("h", "v")), bytes("b")));

        assertThat(raw[2] & EnvelopeCodec.FLAG_TYPED_HEADERS).isZero();
        assertThat(typed[2] & EnvelopeCodec.FLAG_TYPED_HEADERS).isNotZero();
    }

    @Test
    void refusesTheStoredFormWithAMessageAboutTheNamesHash() {
        byte[] stored = {(byte) 0x17, (byte) (0x80 | EnvelopeCodec.FLAG_ORIGIN_NUMBER), 1, 2, 5, 'b'};

        assertRejected(stored, "stored form");
        assertRejected(stored, "names hash");
    }

    @Test
    void rejectsUnknownFlags() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));
        encoded[2] |= 0x40;

        assertRejected(encoded, "unknown flags 0x40");
    }

    @Test
    void rejectsBytesAfterATombstone() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), null));

        assertRejected(Arrays.copyOf(encoded, encoded.length + 1), "trailing bytes after a tombstone");
    }

    @Test
    void rejectsEveryTruncationBeforeTheBody() {
        // the body is what is left, so only the parts before it can be found cut short (Redis keeps a value whole)
        byte[] body = bytes("body");
        byte[] encoded = EnvelopeCodec.encode(new Envelope("id-1", "kafka:t", "kafka:in/0@1", bytes("key"),
                List.of(MessageHeader.text("h", "v"), new MessageHeader("n", null)), Map.of("p", "q"), body));
        for (int length = 0; length < encoded.length - body.length; length++) {
            assertRejected(Arrays.copyOf(encoded, length), "");
        }
    }

    @Test
    void rejectsAnImpossibleHeaderCount() {
        byte[] encoded = {(byte) 0xDB, 3, (byte) EnvelopeCodec.FLAG_HEADERS, 1, 't', 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};

        assertRejected(encoded, "length 268435455 exceeds the remaining 0 bytes");
    }

    @Test
    void rejectsAVarintLongerThan63Bits() {
        byte[] encoded = new byte[3 + 10];
        encoded[0] = (byte) 0xDB;
        encoded[1] = 3;
        Arrays.fill(encoded, 3, 12, (byte) 0x80);

        assertRejected(encoded, "exceeds 63 bits");
    }

    // --- versions 1 and 2, and what every version refuses ------------------------------------------------------

    @Test
    void rejectsWrongMagic() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));
        encoded[0] = (byte) 0xDA;

        assertRejected(encoded, "not an envelope");
    }

    @Test
    void rejectsUnknownVersions() {
        for (int version : new int[] {0, 4, 0x43, 0x7F}) {
            byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));
            encoded[1] = (byte) version;

            assertRejected(encoded, "unsupported envelope version " + version);
        }
    }

    @Test
    void rejectsEmptyInput() {
        assertRejected(new byte[0], "corrupt envelope");
    }

    @Test
    void previousReleaseRecordsAreRefusedWhenTruncatedAnywhere() {
        byte[] encoded = previousReleaseEncoding();
        for (int length = 0; length < encoded.length; length++) {
            assertRejected(Arrays.copyOf(encoded, length), "");
        }
    }

    @Test
    void previousReleaseRecordsWithTrailingBytesAreRefused() {
        byte[] encoded = previousReleaseEncoding();

        assertRejected(Arrays.copyOf(encoded, encoded.length + 1), "trailing bytes");
    }

    @Test
    void previousReleaseRecordsWithANegativeLengthOtherThanNullAreRefused() {
        // magic, version, then a message id of length -2
        byte[] encoded = ByteBuffer.allocate(6).put((byte) 0xDB).put((byte) 1).putInt(-2).array();

        assertRejected(encoded, "length -2");
    }

    @Test
    void previousReleaseRecordsWithNullWhereTextIsRequiredAreRefused() {
        byte[] encoded = ByteBuffer.allocate(6).put((byte) 0xDB).put((byte) 1).putInt(-1).array();

        assertRejected(encoded, "text field is null");
    }

    @Test
    void previousReleaseRecordsWithAnImpossibleHeaderCountAreRefused() {
        Envelope envelope = envelope(null, List.of(), new byte[0]);
        byte[] encoded = PreviousReleaseEnvelopes.encode(envelope);
        // the header count directly follows id, target, origin (texts) and the null key
        int headerCountAt = 2 + textLength(envelope.messageId()) + textLength(envelope.target()) + textLength(envelope.origin()) + 4;
        ByteBuffer.wrap(encoded).putInt(headerCountAt, Integer.MAX_VALUE);

        assertRejected(encoded, "count " + Integer.MAX_VALUE);
    }

    private static void assertRejected(byte[] encoded, String messagePart) {
        assertThatThrownBy(() -> EnvelopeCodec.decode("id-1", encoded))
                .as("decoding %d bytes", encoded.length)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(messagePart);
    }

    private static byte[] previousReleaseEncoding() {
        return PreviousReleaseEnvelopes.encode(new Envelope("id-1", "kafka:t", "kafka:in/0@1", bytes("key"),
                List.of(MessageHeader.text("h", "v"), new MessageHeader("n", null)), Map.of("p", "q"), bytes("body")));
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
}
