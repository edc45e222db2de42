package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.inbound.rabbitmq.DelayedExchange;
import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.Target;
import java.util.Collection;
import java.util.Map;

/**
 * Checks {@code bridge.rabbitmq.delayed-exchanges} ({@code exchange=target-exchange,...}) at start, one line per
 * mistake: names RabbitMQ takes (and a queue name that fits), no delayed exchange among those RabbitMQ reserves, no loop (a delayed
 * exchange, or an inbound exchange, as a target), no exchange bound to two of the bridge's queues.
 */
final class DelayedExchangesCheck {

    private static final String KEY = "setting bridge.rabbitmq.delayed-exchanges: ";
    /** AMQP's limit on a queue name, in bytes; the names checked here are ASCII. */
    private static final int MAX_QUEUE_NAME = 255;

    private DelayedExchangesCheck() {
    }

    static void check(Map<String, String> delayedExchanges, Map<String, String> inboundExchanges) {
        Collection<String> inbound = inboundExchanges.values();
        delayedExchanges.forEach((exchange, target) -> {
            String entry = KEY + exchange + "=" + target + ": ";
            requireName(entry, exchange, "the delayed exchange");
            if (exchange.startsWith("amq.")) {
                throw new IllegalArgumentException(entry + "the delayed exchange " + exchange
                        + " starts with amq., which RabbitMQ reserves for its own exchanges");
            }
            requireName(entry, target, "the target exchange");
            if (new DelayedExchange(exchange, target).queue().length() > MAX_QUEUE_NAME) {
                throw new IllegalArgumentException(entry + "its queue " + DelayedExchange.QUEUE_PREFIX + exchange + " would be longer than "
                        + MAX_QUEUE_NAME + " characters; choose a shorter exchange name");
            }
            if (delayedExchanges.containsKey(target)) {
                throw new IllegalArgumentException(entry + target + " is a delayed exchange of this bridge: its messages would loop");
            }
            if (inbound.contains(target)) {
                throw new IllegalArgumentException(entry + target + " is in bridge.rabbitmq.inbound-exchanges: its messages would loop");
            }
            if (inbound.contains(exchange)) {
                throw new IllegalArgumentException(entry + exchange + " is in bridge.rabbitmq.inbound-exchanges too; name it in one of them");
            }
        });
    }

    private static void requireName(String entry, String name, String role) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException(entry + role + " has no name (the default exchange cannot be declared or routed by pattern)");
        }
        boolean legal;
        try {
            legal = Target.parse(Broker.RABBITMQ.scheme() + name + "/") instanceof Target.RabbitMq target && target.exchange().equals(name);
        } catch (IllegalArgumentException e) {
            legal = false;
        }
        if (!legal) {
            throw new IllegalArgumentException(entry + role + " name '" + name + "' is not legal (1-255 of a-z A-Z 0-9 . _ : -)");
        }
    }
}
