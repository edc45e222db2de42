package io.github.redisdelaybridge.message;

import java.util.Set;

/**
 * Every header name the bridge reads or writes, in one place: the contract with producers (what they set),
 * what the bridge adds on delivery and on dead letters, and how a Kafka key travels on RabbitMQ.
 */
public final class HeaderNames {

    /** Delay in milliseconds, relative to when Redis stores the message. */
    public static final String DELAY = "x-delay";
    /** Due time: epoch milliseconds or an ISO-8601 instant. */
    public static final String DELIVER_AT = "x-deliver-at";
    /** Where the message goes when due: {@code kafka:<topic>} or {@code rabbitmq:<exchange>/<routing-key>}. */
    public static final String TARGET = "x-target";
    /** Identity of the delayed message; repeated ids are not stored twice. On a control message: the message it controls. */
    public static final String MESSAGE_ID = "x-message-id";
    /** Makes a message a control message ({@code cancel} or {@code reschedule}), which is applied and never delivered. */
    public static final String CONTROL = "x-control";
    /**
     * Indexes the message under a group (1-256 bytes of UTF-8), which {@code cancel-group} and {@code reschedule-group}
     * control messages and the admin API act on as a whole. Kept on delivery, like any header the bridge does not consume.
     */
    public static final String GROUP = "x-group";
    /** Added on delivery: the due time in epoch milliseconds (Redis clock). */
    public static final String DUE_AT = "x-delay-due-at";
    /** Added on a dead letter: a stable reason code, see DeadLetterReason. */
    public static final String DEAD_LETTER_REASON = "x-dead-letter-reason";
    /** Added on a dead letter: human-readable explanation. */
    public static final String DEAD_LETTER_DETAIL = "x-dead-letter-detail";
    /** Added on a dead letter: where the message came from, e.g. {@code kafka:delay.inbound/0@42}. */
    public static final String DEAD_LETTER_ORIGIN = "x-dead-letter-origin";
    /**
     * Added on a dead letter of a RabbitMQ message refused on the way in: the routing key it was published with, which the
     * dead-letter channel's own routing replaces, so a replay can name the target {@code {routing-key}} would have made.
     */
    public static final String DEAD_LETTER_ROUTING_KEY = "x-dead-letter-routing-key";
    /** Added on a dead letter that failed delivery: attempts made. */
    public static final String DEAD_LETTER_ATTEMPTS = "x-dead-letter-attempts";
    /**
     * Added on a dead letter sent without parts of the message, because the whole would not fit the dead-letter channel:
     * {@code body}, or {@code body,key,headers}.
     */
    public static final String DEAD_LETTER_DROPPED = "x-dead-letter-dropped";
    /** Added with {@link #DEAD_LETTER_DROPPED}: the sizes, the limit, and where the whole message can be fetched, if anywhere. */
    public static final String DEAD_LETTER_DROPPED_DETAIL = "x-dead-letter-dropped-detail";

    /** Every dead-letter header starts with this. */
    public static final String DEAD_LETTER_PREFIX = "x-dead-letter-";
    /** On a message delivered to RabbitMQ from Kafka: the Kafka record key, which AMQP has no field for. */
    public static final String KAFKA_KEY = "x-kafka-key";

    /*
     * The most bytes a header the bridge reads may have. They are checked before the value is decoded or parsed, so
     * every record is decided in time that does not grow with what a producer puts in it; each is well above any
     * valid value.
     */
    /** {@code x-delay} and {@code x-deliver-at}: an instant with a nine-digit year, nanoseconds and an offset is 44 bytes. */
    public static final int MAX_DUE_TIME_BYTES = 64;
    /** {@code x-control}: {@code reschedule} with room for whitespace. */
    public static final int MAX_CONTROL_BYTES = 32;
    /** {@code x-target}: {@code rabbitmq:} with a 255-byte exchange and a 255-byte routing key is 520 bytes. */
    public static final int MAX_TARGET_BYTES = 1024;
    /** {@code x-group}: the longest valid group name. */
    public static final int MAX_GROUP_BYTES = 256;
    /** {@code x-message-id}. */
    public static final int MAX_MESSAGE_ID_BYTES = 512;

    /** Headers that instruct the bridge and are not passed on to the target. */
    public static final Set<String> CONSUMED_BY_BRIDGE = Set.of(DELAY, DELIVER_AT, TARGET);

    /**
     * Headers the bridge reads or adds on the way in and out (not the dead-letter ones): a message sent
     * through the bridge again (a dead-letter replay) gets fresh ones.
     */
    public static final Set<String> SET_BY_BRIDGE = Set.of(DELAY, DELIVER_AT, TARGET, MESSAGE_ID, CONTROL, DUE_AT);

    /** True for a header the bridge adds to a dead letter. */
    public static boolean isDeadLetterHeader(String name) {
        return name.startsWith(DEAD_LETTER_PREFIX);
    }

    private HeaderNames() {
    }
}
