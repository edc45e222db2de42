package io.github.redisdelaybridge.message;

/**
 * The kinds of broker the bridge reads from and publishes to. Its {@link #label()} is the broker's name wherever the bridge
 * writes one: the scheme of a target's text form ({@code kafka:orders}), an origin's prefix, the {@code kind} label of the
 * metrics, the name of a broker in settings and in explanations.
 */
public enum Broker {
    KAFKA("kafka"),
    RABBITMQ("rabbitmq");

    private final String label;

    Broker(String label) {
        this.label = label;
    }

    /** The broker's name: {@code kafka} or {@code rabbitmq}. */
    public String label() {
        return label;
    }

    /** The prefix of a target's or an origin's text form on this broker: the label and a colon. */
    public String scheme() {
        return label + ":";
    }

    @Override
    public String toString() {
        return label;
    }
}
