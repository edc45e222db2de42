package io.github.redisdelaybridge.message;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * Where a message goes when it falls due. Text form (the {@code x-target} header):
 * {@code kafka:<topic>}, {@code rabbitmq:<exchange>/<routing-key>}, or {@code rabbitmq:/<queue>} for
 * RabbitMQ's default exchange.
 */
public sealed interface Target {

    /** The canonical text form, as stored and as matched by the allow-list. */
    String uri();

    record Kafka(String topic) implements Target {
        @Override
        public String uri() {
            return "kafka:" + topic;
        }
    }

    record RabbitMq(String exchange, String routingKey) implements Target {
        @Override
        public String uri() {
            return "rabbitmq:" + exchange + "/" + routingKey;
        }
    }

    Pattern KAFKA_TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");
    Pattern RABBITMQ_EXCHANGE = Pattern.compile("[a-zA-Z0-9._:-]{0,255}");

    /** Characters of a target text a message quotes at most: producers choose the text, and its length. */
    int QUOTED_CHARS = 80;

    /**
     * The text as a message quotes it: whole when short, else its start and its length, so that a rejection or a log line does not
     * repeat a long text a producer chose.
     */
    static String abbreviated(String text) {
        return text.length() <= QUOTED_CHARS ? text : text.substring(0, QUOTED_CHARS - 3) + "... (" + text.length() + " characters)";
    }

    /** Parses the text form; throws IllegalArgumentException with a message fit for a dead letter (the text abbreviated). */
    static Target parse(String text) {
        if (text.startsWith("kafka:")) {
            String topic = text.substring("kafka:".length());
            if (!KAFKA_TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
                throw new IllegalArgumentException(
                        "'" + abbreviated(text) + "' is not kafka:<topic> with a legal topic name (1-249 of a-z A-Z 0-9 . _ -)");
            }
            return new Kafka(topic);
        }
        if (text.startsWith("rabbitmq:")) {
            String rest = text.substring("rabbitmq:".length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("'" + abbreviated(text) + "' is not rabbitmq:<exchange>/<routing-key>");
            }
            String exchange = rest.substring(0, slash);
            String routingKey = rest.substring(slash + 1);
            if (!RABBITMQ_EXCHANGE.matcher(exchange).matches()) {
                throw new IllegalArgumentException("'" + abbreviated(text) + "': exchange name '" + abbreviated(exchange) + "' is not legal");
            }
            if (routingKey.getBytes(StandardCharsets.UTF_8).length > 255) {
                throw new IllegalArgumentException("'" + abbreviated(text) + "': routing key longer than 255 bytes");
            }
            if (exchange.isEmpty() && routingKey.isEmpty()) {
                throw new IllegalArgumentException("'" + abbreviated(text) + "': the default exchange needs a queue name, rabbitmq:/<queue>");
            }
            return new RabbitMq(exchange, routingKey);
        }
        throw new IllegalArgumentException("'" + abbreviated(text) + "' names no known broker: use kafka:<topic> or rabbitmq:<exchange>/<routing-key>");
    }
}
