package io.github.redisdelaybridge.message;

/**
 * {@value #PLACEHOLDER} in the routing-key part of a {@code rabbitmq:} target ({@code x-target}, a default target, a
 * delayed exchange's target): it stands for the routing key the message was published with to the bridge's inbound
 * queue or exchange, so a producer keeps its routing keys on the way out as well as on the way in. It is replaced when
 * the message arrives, and only the resulting target is checked and stored. A message that came from Kafka has no
 * routing key: a target with the placeholder is refused for it ({@code invalid-target}).
 */
public final class RoutingKeyPlaceholder {

    public static final String PLACEHOLDER = "{routing-key}";

    private RoutingKeyPlaceholder() {
    }

    /** True if the text names the placeholder anywhere (outside a {@code rabbitmq:} routing key it makes the target invalid). */
    public static boolean isIn(String targetText) {
        return targetText.contains(PLACEHOLDER);
    }

    /**
     * The target text with the placeholder replaced by {@code routingKey} in its routing-key part (after the first
     * {@code /} of a {@code rabbitmq:} target). Anywhere else it stays as it is, and the target syntax refuses it.
     */
    public static String resolve(String targetText, String routingKey) {
        if (!targetText.startsWith(Broker.RABBITMQ.scheme())) {
            return targetText;
        }
        int slash = targetText.indexOf('/');
        if (slash < 0) {
            return targetText;
        }
        return targetText.substring(0, slash + 1) + targetText.substring(slash + 1).replace(PLACEHOLDER, routingKey);
    }
}
