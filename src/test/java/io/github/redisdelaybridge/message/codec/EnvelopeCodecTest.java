package io.github.redisdelaybridge.message.codec;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Round trips through the writer (version 3), and what the reader refuses.
 */
class EnvelopeCodecTest {

    // --- round trips ------------------------------------------------------------------------------------------

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
    void roundTripOfATombstoneWithoutKeyOrHeaders() {
        Envelope tombstone = envelope(null, List.of(), null);

        assertThat(roundTrip(tombstone)).isEqualTo(tombstone);
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
    void roundTripOfLargeRandomBodyKeyAndHeader() {
        Random random = new Random(7);
        byte[] body = new byte[1024 * 1024 + 3];
        byte[] key = new byte[70_000];
        byte[] header = new byte[20_000];
        random.nextBytes(body);
        random.nextBytes(key);
        random.nextBytes(header);

        Envelope decoded = roundTrip(envelope(key, List.of(new MessageHeader("big", header)), body));

        assertThat(decoded.body()).isEqualTo(body);
        assertThat(decoded.key()).isEqualTo(key);
        assertThat(decoded.headers().get(0).value()).isEqualTo(header);
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
    void roundTripKeepsOriginsWithAndWithoutATrailingNumber() {
        for (String origin : List.of("kafka:delay.inbound/0@42", "kafka:t/3@0", "kafka:t/3@9223372036854775807", "rabbitmq:orders",
                "rabbitmq:q-007", "", "0", "redis")) {
            Envelope envelope = new Envelope("id", "kafka:t", origin, null, List.of(), Map.of(), bytes("b"));

            assertThat(roundTrip(envelope).origin()).as(origin).isEqualTo(origin);
        }
    }

    @Test
    void randomlyDamagedInputDecodesOrFailsOnlyWithIllegalArgumentException() {
        byte[] valid = EnvelopeCodec.encode(new Envelope("id-1", "kafka:t", "kafka:in/0@1", bytes("key"),
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
        encoded[2] |= (byte) 0x80;

        assertRejected(encoded, "unknown flags 0x80");
    }

    @Test
    void aGroupHeaderSetsTheGroupedFlagAndReadsBack() {
        Envelope grouped = envelope(null, List.of(MessageHeader.text("trace", "t"), MessageHeader.text("x-group", "order-42")), bytes("b"));
        byte[] encoded = EnvelopeCodec.encode(grouped);

        assertThat(encoded[2] & EnvelopeCodec.FLAG_GROUPED).isEqualTo(EnvelopeCodec.FLAG_GROUPED);
        assertThat(EnvelopeCodec.decode(grouped.messageId(), encoded)).isEqualTo(grouped);
        assertThat(EnvelopeCodec.groupOf(encoded)).isEqualTo("order-42");
        byte[] plain = EnvelopeCodec.encode(envelope(null, List.of(MessageHeader.text("trace", "t")), bytes("b")));
        assertThat(plain[2] & EnvelopeCodec.FLAG_GROUPED).isZero();
        assertThat(EnvelopeCodec.groupOf(plain)).isNull();
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

    // --- what is not version 3 ------------------------------------------------------------------------------------

    @Test
    void rejectsWrongMagic() {
        byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));
        encoded[0] = (byte) 0xDA;

        assertRejected(encoded, "not an envelope");
    }

    @Test
    void rejectsUnknownVersions() {
        for (int version : new int[] {0, 1, 2, 4, 0x43, 0x7F}) {
            byte[] encoded = EnvelopeCodec.encode(envelope(null, List.of(), bytes("b")));
            encoded[1] = (byte) version;

            assertRejected(encoded, "unsupported envelope version " + version);
        }
    }

    @Test
    void rejectsEmptyInput() {
        assertRejected(new byte[0], "corrupt envelope");
    }

    private static void assertRejected(byte[] encoded, String messagePart) {
        assertThatThrownBy(() -> EnvelopeCodec.decode("id-1", encoded))
                .as("decoding %d bytes", encoded.length)
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(messagePart);
    }

    private static Envelope roundTrip(Envelope envelope) {
        return EnvelopeCodec.decode(envelope.messageId(), EnvelopeCodec.encode(envelope));
    }

    private static Envelope envelope(byte[] key, List<MessageHeader> headers, byte[] body) {
        return new Envelope("id-1", "kafka:target", "kafka:in/0@1", key, headers, Map.of(), body);
    }

    private static byte[] reverse(byte[] bytes) {
        byte[] reversed = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            reversed[i] = bytes[bytes.length - 1 - i];
        }
        return reversed;
    }
}
