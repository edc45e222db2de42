package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.RoutingKeyPlaceholder;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Checks the configured targets when the bridge starts, against the policy it will apply to messages, so that a mistake
 * stops the start instead of dead-lettering every message:
 * <ul>
 *   <li>default targets ({@code bridge.kafka.default-targets}, {@code bridge.rabbitmq.default-targets}) and the targets of
 *       {@code bridge.rabbitmq.delayed-exchanges}: each must name an inbound topic or queue and a target this bridge may
 *       deliver to; one with {@code {routing-key}} must come from RabbitMQ, and some routing key must be allowed;</li>
 *   <li>the allow-list {@code bridge.targets.allowed}: not empty, and each pattern able to match a target.</li>
 * </ul>
 */
public final class TargetSettingsCheck {

    private TargetSettingsCheck() {
    }

    /** The settings' targets against the policy the bridge will apply to messages; throws if any is wrong. */
    public static void checkTargets(BridgeSettings settings, TargetPolicy policy) {
        List<String> problems = new ArrayList<>(allowListProblems(settings.allowedTargets()));
        problems.addAll(defaultTargetProblems("bridge.kafka.default-targets", "bridge.kafka.inbound-topics",
                settings.defaultTargets(), settings.kafkaInboundTopics(), policy, false));
        if (settings.rabbitMq().enabled()) {
            problems.addAll(defaultTargetProblems("bridge.rabbitmq.default-targets", "bridge.rabbitmq.inbound-queues",
                    settings.rabbitMq().defaultTargets(), settings.rabbitMq().inboundQueues(), policy, true));
            settings.rabbitMq().delayedExchangeList().forEach(delayed -> problems.addAll(defaultTargetProblems(
                    "bridge.rabbitmq.delayed-exchanges", "the delayed exchanges' queues", Map.of(delayed.queue(), delayed.defaultTarget()),
                    List.of(delayed.queue()), policy, true).stream()
                    .map(problem -> problem.replace(delayed.queue() + "=" + delayed.defaultTarget(),
                            delayed.exchange() + "=" + delayed.targetExchange() + " (target " + delayed.defaultTarget() + ")"))
                    .toList()));
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
    }

    static List<String> allowListProblems(List<String> patterns) {
        if (patterns.isEmpty()) {
            return List.of("bridge.targets.allowed is empty: every target would be refused (forbidden-target); allow all with kafka:*,rabbitmq:*");
        }
        List<String> problems = new ArrayList<>();
        for (String pattern : patterns) {
            int star = pattern.indexOf('*');
            String literal = star < 0 ? pattern : pattern.substring(0, star);
            boolean broker = Stream.of(Broker.values()).map(Broker::scheme).anyMatch(b -> b.startsWith(literal) || literal.startsWith(b));
            if (!broker) {
                problems.add("bridge.targets.allowed: pattern '" + pattern + "' matches no target (targets start with kafka: or rabbitmq:)");
            } else if (star < 0) {
                try {
                    Target.parse(pattern);
                } catch (IllegalArgumentException e) {
                    problems.add("bridge.targets.allowed: pattern '" + pattern + "' matches no target: " + e.getMessage());
                }
            }
        }
        return problems;
    }

    /** @param routingKeys whether the source's messages have a routing key for {@code {routing-key}} (RabbitMQ's do) */
    static List<String> defaultTargetProblems(String key, String inboundKey, Map<String, String> defaults, List<String> inbound,
                                              TargetPolicy policy, boolean routingKeys) {
        List<String> problems = new ArrayList<>();
        defaults.forEach((source, text) -> {
            String entry = key + ": " + source + "=" + text;
            if (!inbound.contains(source)) {
                problems.add(entry + ": " + source + " is not in " + inboundKey + " " + inbound);
                return;
            }
            Target target;
            try {
                target = Target.parse(text);
            } catch (IllegalArgumentException e) {
                problems.add(entry + ": " + e.getMessage());
                return;
            }
            boolean template = RoutingKeyPlaceholder.isIn(text);
            if (template && !routingKeys) {
                problems.add(entry + ": " + RoutingKeyPlaceholder.PLACEHOLDER + " stands for a RabbitMQ routing key, and a Kafka record has none");
                return;
            }
            String unsupported = policy.whyUnsupported(target);
            String forbidden = template
                    ? policy.whyForbiddenWhateverFollows(text.substring(0, text.indexOf(RoutingKeyPlaceholder.PLACEHOLDER)))
                    : policy.whyForbidden(target);
            if (unsupported != null) {
                problems.add(entry + ": " + unsupported);
            } else if (forbidden != null) {
                problems.add(entry + ": " + forbidden);
            }
        });
        return problems;
    }
}
