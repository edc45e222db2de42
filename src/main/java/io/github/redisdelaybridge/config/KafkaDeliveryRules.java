package io.github.redisdelaybridge.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Kafka pass-through values that would void a promise of the bridge, refused at start with one line each: the bridge
 * deletes a message from Redis once the target's broker acknowledged it, and commits an inbound offset only once Redis
 * has the batch, so the producers must wait for every in-sync replica and the consumers must never commit by themselves.
 * The value checked is the one each client gets: its own family's, else the client family's.
 */
final class KafkaDeliveryRules {

    private static final String BYTES = "the bridge sets it itself: keys and payloads pass through as bytes, unchanged";

    private record Rule(String property, Predicate<String> allowed, String why) {
    }

    private static final List<Rule> PRODUCER = List.of(
            new Rule("acks", value -> value.equals("all") || value.equals("-1"),
                    "the bridge deletes a message from Redis once Kafka acknowledges it, so every in-sync replica must have it first: all or -1"),
            new Rule("enable.idempotence", value -> value.equalsIgnoreCase("true"),
                    "the bridge needs the idempotent producer: without it a send the producer retries can reach the topic twice or out of due order"),
            new Rule("retries", value -> wholeNumberIn(value, 1, Integer.MAX_VALUE),
                    "the idempotent producer needs retries (at least 1; Kafka refuses 0): they ride out a leader change without failing the publish"),
            new Rule("max.in.flight.requests.per.connection", value -> wholeNumberIn(value, 1, 5),
                    "the idempotent producer keeps a partition in order with 1 to 5 requests in flight, and Kafka refuses more"),
            new Rule("transactional.id", String::isEmpty,
                    "the bridge sends without transactions, and a transactional producer refuses every such send"),
            new Rule("key.serializer", ByteArraySerializer.class.getName()::equals, BYTES),
            new Rule("value.serializer", ByteArraySerializer.class.getName()::equals, BYTES));

    private static final List<Rule> CONSUMER = List.of(
            new Rule("enable.auto.commit", value -> value.equalsIgnoreCase("false"),
                    "the bridge commits an offset only once Redis has the batch; auto-commit would commit it before"),
            new Rule("auto.offset.reset", value -> List.of("earliest", "none").contains(value.toLowerCase(Locale.ROOT)),
                    "a partition without a committed offset (a new group, offsets expired or out of range) would be read from its end,"
                            + " skipping the records already there: earliest (the bridge's) or none"),
            new Rule("key.deserializer", ByteArrayDeserializer.class.getName()::equals, BYTES),
            new Rule("value.deserializer", ByteArrayDeserializer.class.getName()::equals, BYTES));

    private KafkaDeliveryRules() {
    }

    /**
     * One line per refused value.
     *
     * @param keys the key each value was set with, by family and property ({@code bridge.kafka.producer.acks}), as set
     *             (a {@code -file} key included)
     */
    static List<String> problems(KafkaClientProperties properties, Map<String, String> keys) {
        List<String> problems = new ArrayList<>();
        check(PRODUCER, properties.producer(), KafkaClientProperties.PRODUCER, properties.client(), keys, problems);
        check(CONSUMER, properties.consumer(), KafkaClientProperties.CONSUMER, properties.client(), keys, problems);
        return problems;
    }

    private static void check(List<Rule> rules, Map<String, String> family, String familyPrefix, Map<String, String> client,
                              Map<String, String> keys, List<String> problems) {
        for (Rule rule : rules) {
            String prefix = family.containsKey(rule.property()) ? familyPrefix : client.containsKey(rule.property()) ? KafkaClientProperties.CLIENT : null;
            if (prefix == null) {
                continue;
            }
            String value = (prefix.equals(familyPrefix) ? family : client).get(rule.property());
            if (!rule.allowed().test(value)) {
                String key = keys.getOrDefault(prefix + rule.property(), prefix + rule.property());
                problems.add("setting " + key + ": " + rule.property() + "=" + value + " is refused: " + rule.why());
            }
        }
    }

    private static boolean wholeNumberIn(String value, long min, long max) {
        try {
            long number = Long.parseLong(value);
            return number >= min && number <= max;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
