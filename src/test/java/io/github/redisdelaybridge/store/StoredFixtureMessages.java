package io.github.redisdelaybridge.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import java.util.List;
import java.util.Map;

/**
 * The messages the fixtures of src/test/resources/stored-forms hold: {@link StoredFixtureWriter} stores them with the
 * current code, {@link StoredFixturesTest} reads the fixtures back and expects these.
 */
final class StoredFixtureMessages {

    /** A default Kafka id ({@code <topic>@<topic id>-<partition>-<offset>}): held as a packed member. */
    static final String PACKED_ID = "delay.inbound@q7RFvT1nRZ2tPkAtbZ0hXw-0-1234567";
    /** An id of no packable shape: held verbatim. */
    static final String VERBATIM_ID = "order-42/ü";
    /** Stored in the wire form: the names hash had no room for its names. */
    static final String WIRE_FORM_ID = "invoice-7";
    static final String DEAD_ID = "delay.inbound@q7RFvT1nRZ2tPkAtbZ0hXw-1-99";
    /** Stored with an x-group header: flag 0x40 of its envelope, and an entry in its slot's index of the group. */
    static final String GROUPED_ID = "order-42-timeout";
    static final String GROUP = "order-42";
    /** The target of {@link #KAFKA}, parked in pending-parked.txt. */
    static final String PARKED_TARGET = "kafka:orders.expired";

    static final long PACKED_DUE = 1_000;
    static final long VERBATIM_DUE = 2_000;
    static final long WIRE_FORM_DUE = 3_000;
    static final long GROUPED_DUE = 4_000;

    static final Envelope KAFKA = new Envelope(PACKED_ID, "kafka:orders.expired", "kafka:delay.inbound/0@1234567", "key-1".getBytes(UTF_8),
            List.of(MessageHeader.text("trace", "abc"), new MessageHeader("none", null)), Map.of(), "{\"order\":1}".getBytes(UTF_8));

    /** One property only: properties are a map, written in its iteration order, which differs between JVM runs. */
    static final Envelope RABBITMQ = new Envelope(VERBATIM_ID, "rabbitmq:orders/expired", "rabbitmq:orders.delay", null,
            List.of(MessageHeader.amqp("count", 3), MessageHeader.text("tenant", "t1")), Map.of("content-type", "application/octet-stream"),
            new byte[] {0, 1, (byte) 0xFE, (byte) 0xFF});

    static final Envelope UNINTERNED = new Envelope(WIRE_FORM_ID, "kafka:invoices.due", "kafka:billing/3@77", null, List.of(), Map.of(),
            null);

    /** The group among other headers, after a key: what a reader must skip to find it. */
    static final Envelope GROUPED = new Envelope(GROUPED_ID, "kafka:orders.expired", "kafka:delay.inbound/0@42", "key-42".getBytes(UTF_8),
            List.of(MessageHeader.text("trace", "g"), MessageHeader.text("x-group", GROUP), MessageHeader.text("after", "x")), Map.of(),
            "{\"order\":42}".getBytes(UTF_8));

    static final DeadLetter DEAD = new DeadLetter(DEAD_ID, DeadLetterReason.PUBLISH_FAILED, "target refused: 403", "kafka:delay.inbound/1@99",
            "kafka:orders.expired", 4, null, List.of(MessageHeader.text("trace", "dead")), Map.of(), "gone".getBytes(UTF_8));

    private StoredFixtureMessages() {
    }
}
