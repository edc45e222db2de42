package io.github.redisdelaybridge.admin;

import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON the admin API writes for one message id, in each state. */
class MessageViewsTest {

    private static final byte[] NOT_UTF8 = {(byte) 0xC3, 0x28};

    @Test
    void aPendingMessageShowsItsDueTimeTargetAndHeadersButNotItsBody() throws Exception {
        Envelope envelope = new Envelope("m-1", "kafka:out", "kafka:in/0@5", bytes("k"),
                List.of(MessageHeader.text("trace", "t-1"), new MessageHeader("bin", NOT_UTF8), new MessageHeader("none", null)),
                Map.of("content-type", "text/plain"), bytes("secret"));
        byte[] encoded = EnvelopeCodec.encode(envelope);
        MessageFacts facts = new MessageFacts("m-1", 1_000, 5_000L, null, 2, encoded, null, null, null, null, 61L);

        String json = write(MessageViews.ofMessage(facts, false));

        assertThat(json).isEqualTo("{\"id\":\"m-1\",\"state\":\"pending\",\"dueAt\":5000,\"attempts\":2,\"target\":\"kafka:out\","
                + "\"origin\":\"kafka:in/0@5\",\"size\":61,\"key\":\"k\",\"headers\":[{\"name\":\"trace\",\"value\":\"t-1\"},"
                + "{\"name\":\"bin\",\"valueBase64\":\"wyg=\"},{\"name\":\"none\"}],\"properties\":{\"content-type\":\"text/plain\"}}");
        assertThat(write(MessageViews.ofMessage(facts, true))).contains("\"body\":\"secret\"");
    }

    @Test
    void rabbitMqHeadersShowTheirValuesAsTextNotTheirAmqpEncoding() throws Exception {
        MessageFacts facts = pendingWith(new Envelope("r", "kafka:out", "rabbitmq:in", null,
                List.of(MessageHeader.amqp("n", 42), MessageHeader.amqp("s", "hello"), MessageHeader.amqp("table", Map.of("a", 1))),
                Map.of(), bytes("b")));

        assertThat(write(MessageViews.ofMessage(facts, false)))
                .contains("{\"name\":\"n\",\"value\":\"42\"}")
                .contains("{\"name\":\"s\",\"value\":\"hello\"}")
                .contains("{\"name\":\"table\",\"value\":\"{\\\"a\\\":1}\"}");
    }

    @Test
    void aTombstoneAndABinaryBody() throws Exception {
        MessageFacts tombstone = pendingWith(new Envelope("t", "kafka:out", "o", NOT_UTF8, List.of(), Map.of(), null));
        MessageFacts binary = pendingWith(new Envelope("b", "kafka:out", "o", null, List.of(), Map.of(), NOT_UTF8));

        assertThat(write(MessageViews.ofMessage(tombstone, true))).contains("\"keyBase64\":\"wyg=\"").contains("\"tombstone\":true")
                .doesNotContain("\"body");
        assertThat(write(MessageViews.ofMessage(binary, true))).contains("\"bodyBase64\":\"wyg=\"").doesNotContain("tombstone");
    }

    @Test
    void inFlightDeliveredCancelledAndDeadStates() throws Exception {
        byte[] envelope = EnvelopeCodec.encode(new Envelope("m", "kafka:out", "o", null, List.of(), Map.of(), bytes("b")));
        byte[] record = DeadLetterCodec.encode(new DeadLetter("m", DeadLetterReason.PUBLISH_FAILED, "refused", "kafka:in/0@1", "kafka:out", 10,
                null, List.of(), Map.of(), bytes("b")));

        assertThat(write(MessageViews.ofMessage(new MessageFacts("m", 1, 9L, 70_000L, 1, envelope, null, null, null, null, 20L), false)))
                .contains("\"state\":\"in-flight\",\"leaseUntil\":70000,\"attempts\":1").doesNotContain("dueAt");
        assertThat(write(MessageViews.ofMessage(new MessageFacts("m", 1, null, null, 0, null, 500L, null, null, null, null), false)))
                .isEqualTo("{\"id\":\"m\",\"state\":\"delivered\",\"deliveredAt\":500}");
        assertThat(write(MessageViews.ofMessage(new MessageFacts("m", 1, null, null, 0, null, 500L, 600L, null, null, null), false)))
                .isEqualTo("{\"id\":\"m\",\"state\":\"cancelled\",\"cancelledAt\":600}");
        assertThat(write(MessageViews.ofMessage(new MessageFacts("m", 1, null, null, 0, null, null, null, 700L, record, null), false)))
                .contains("\"state\":\"dead\",\"deadAt\":700,\"reason\":\"publish-failed\",\"detail\":\"refused\",\"attempts\":10,"
                        + "\"target\":\"kafka:out\",\"origin\":\"kafka:in/0@1\",\"size\":" + record.length);
    }

    @Test
    void aDeadLetterViewIsNullWithoutARecordAndSaysWhenItCannotBeRead() throws Exception {
        assertThat(MessageViews.ofDeadLetter(new MessageFacts("m", 1, 5L, null, 0, new byte[] {1}, null, null, null, null, 1L), false)).isNull();
        assertThat(write(MessageViews.ofDeadLetter(new MessageFacts("m", 1, null, null, 0, null, null, null, 7L, new byte[] {1, 2}, null), false)))
                .contains("\"state\":\"dead\"").contains("\"unreadable\":\"not a dead-letter record\"");
    }

    private static MessageFacts pendingWith(Envelope envelope) {
        byte[] encoded = EnvelopeCodec.encode(envelope);
        return new MessageFacts(envelope.messageId(), 1, 5L, null, 0, encoded, null, null, null, null, (long) encoded.length);
    }

    private static String write(Object view) throws Exception {
        return ApiResponses.JSON.writeValueAsString(view);
    }
}
