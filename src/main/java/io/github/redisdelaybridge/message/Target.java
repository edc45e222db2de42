package io.github.redisdelaybridge.message;

import java.nio.charset.StandardCharsets;

/**
 * Where a message goes when it falls due. Text form (the {@code x-target} header):
 * {@code kafka:<topic>}, {@code rabbitmq:<exchange>/<routing-key>}, or {@code rabbitmq:/<queue>} for
 * RabbitMQ's default exchange.
 */
public sealed interface Target {

    /** The canonical text form, as stored and as matched by the allow-list. */
    String uri();

    /** The broker it is published to. */
    Broker broker();

    record Kafka(String topic) implements Target {
        @Override
        public String uri() {
            return Broker.KAFKA.scheme() + topic;
        }

        @Override
        public Broker broker() {
            return Broker.KAFKA;
        }
    }

    record RabbitMq(String exchange, String routingKey) implements Target {
        @Override
        public String uri() {
            return Broker.RABBITMQ.scheme() + exchange + "/" + routingKey;
        }

        @Override
        public Broker broker() {
            return Broker.RABBITMQ;
        }
    }

    /** Parses the text form; throws IllegalArgumentException with a message fit for a dead letter (quoting at most an excerpt). */
    static Target parse(String text) {
        if (text.startsWith(Broker.KAFKA.scheme())) {
            String topic = text.substring(Broker.KAFKA.scheme().length());
            if (!isName(topic, 1, 249, "._-") || topic.equals(".") || topic.equals("..")) {
                throw new IllegalArgumentException(
                        "'" + Excerpt.of(text) + "' is not kafka:<topic> with a legal topic name (1-249 of a-z A-Z 0-9 . _ -)");
            }
            return new Kafka(topic);
        }
        if (text.startsWith(Broker.RABBITMQ.scheme())) {
            String rest = text.substring(Broker.RABBITMQ.scheme().length());
            int slash = rest.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("'" + Excerpt.of(text) + "' is not rabbitmq:<exchange>/<routing-key>");
            }
            String exchange = rest.substring(0, slash);
            String routingKey = rest.substring(slash + 1);
            if (!isName(exchange, 0, 255, "._:-")) {
                throw new IllegalArgumentException("'" + Excerpt.of(text) + "': exchange name '" + Excerpt.of(exchange)
                        + "' is not legal (0-255 of a-z A-Z 0-9 . _ : -)");
            }
            if (routingKey.length() > 255 || routingKey.getBytes(StandardCharsets.UTF_8).length > 255) {
                throw new IllegalArgumentException("'" + Excerpt.of(text) + "': routing key longer than 255 bytes");
            }
            if (exchange.isEmpty() && routingKey.isEmpty()) {
                throw new IllegalArgumentException("'" + Excerpt.of(text) + "': the default exchange needs a queue name, rabbitmq:/<queue>");
            }
            return new RabbitMq(exchange, routingKey);
        }
        throw new IllegalArgumentException("'" + Excerpt.of(text) + "' names no known broker: use kafka:<topic> or rabbitmq:<exchange>/<routing-key>");
    }

    /** {@code min} to {@code max} of ASCII letters, digits and {@code punctuation}; checked a character at a time. */
    private static boolean isName(String name, int min, int max, String punctuation) {
        if (name.length() < min || name.length() > max) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && punctuation.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
