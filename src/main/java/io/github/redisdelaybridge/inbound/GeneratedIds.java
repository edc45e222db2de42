package io.github.redisdelaybridge.inbound;

import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The ids the bridge gives messages that arrive without one, and the rule that keeps producers' ids apart from them.
 *
 * <p>On Kafka: {@code <topic>@<topic id>-<partition>-<offset>}, e.g. {@code delay.inbound@kL0pYxX2SVi1GZ8ZGz1tQA-0-42}. The
 * topic id is the one Kafka gives each topic when it is created (as {@code kafka-topics --describe} shows it): a topic
 * deleted and created again, or the same name on another cluster, starts its offsets from 0 again under a new topic id,
 * so its ids never meet the earlier incarnation's in the dedupe or cancel windows; the same record read again (after a
 * rebalance) gets the same id, so a re-read is a duplicate. On RabbitMQ: {@code rabbitmq-<random UUID>}.
 *
 * <p>A producer's id in either form is refused: it could only name another producer's message, e.g. to cancel it before
 * it arrives. Topic names never hold {@code @}, and Kafka writes topic ids as 22 characters of URL-safe base64.
 */
public final class GeneratedIds {

    private static final Pattern KAFKA = Pattern.compile("[a-zA-Z0-9._-]+@[a-zA-Z0-9_-]{22}-[0-9]+-[0-9]+");
    private static final Pattern RABBITMQ = Pattern.compile("rabbitmq-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /** How a refusal names the two forms. */
    public static final String FORMS = "<topic>@<topic id>-<partition>-<offset> or rabbitmq-<uuid>";

    private GeneratedIds() {
    }

    /** @param topicId the topic's id as Kafka writes it (its {@code Uuid.toString()}) */
    public static String kafka(String topic, String topicId, int partition, long offset) {
        return topic + "@" + topicId + "-" + partition + "-" + offset;
    }

    public static String rabbitMq() {
        return "rabbitmq-" + UUID.randomUUID();
    }

    /** Whether {@code id} has the form of a generated id (whether or not the bridge generated it). */
    public static boolean isGenerated(String id) {
        return KAFKA.matcher(id).matches() || RABBITMQ.matcher(id).matches();
    }
}
