package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code bridge.rabbitmq.delayed-exchanges}: what it makes of each entry, and what a start refuses, in one line each. */
class DelayedExchangesSettingsTest {

    private Map<String, String> config;

    @BeforeEach
    void shippedConfigWithRabbitMq() throws IOException {
        config = ShippedConfig.settings();
        config.put("bridge.rabbitmq.enabled", "true");
    }

    @Test
    void shippedWithoutAny() throws IOException {
        assertThat(BridgeSettings.from(ShippedConfig.settings()::get).rabbitMq().delayedExchangeList()).isEmpty();
    }

    @Test
    void eachExchangeGetsAQueueOfItsOwnWhoseMessagesGoToTheTargetExchangeWithTheirRoutingKey() {
        config.put("bridge.rabbitmq.delayed-exchanges", "orders.delayed=orders, billing.later = billing");

        RabbitMqSettings rabbitMq = BridgeSettings.from(config::get).rabbitMq();

        assertThat(rabbitMq.consumedQueues()).containsExactly("delay.inbound", "redis-delay-bridge.delayed.orders.delayed",
                "redis-delay-bridge.delayed.billing.later");
        assertThat(rabbitMq.exchangeByQueue()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "redis-delay-bridge.delayed.orders.delayed", "orders.delayed", "redis-delay-bridge.delayed.billing.later", "billing.later"));
        assertThat(rabbitMq.defaultTargetByQueue()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "redis-delay-bridge.delayed.orders.delayed", "rabbitmq:orders/{routing-key}",
                "redis-delay-bridge.delayed.billing.later", "rabbitmq:billing/{routing-key}"));
        assertThat(targetProblems()).isEmpty();
    }

    @Test
    void noInboundQueueIsNeededBesideThem() {
        config.put("bridge.rabbitmq.inbound-queues", "");
        config.put("bridge.rabbitmq.delayed-exchanges", "orders.delayed=orders");

        assertThat(BridgeSettings.from(config::get).rabbitMq().consumedQueues()).containsExactly("redis-delay-bridge.delayed.orders.delayed");
    }

    @Test
    void badEntriesAreRefusedWithOneLineEach() {
        Map<String, String> refusals = Map.of(
                "orders.delayed=", "orders.delayed=: the target exchange has no name",
                "=orders", "must be name=value pairs",
                "amq.delayed=orders", "the delayed exchange amq.delayed starts with amq., which RabbitMQ reserves",
                "orders delayed=orders", "the delayed exchange name 'orders delayed' is not legal",
                "orders.delayed=or/ders", "the target exchange name 'or/ders' is not legal",
                "a.delayed=b.delayed,b.delayed=orders", "a.delayed=b.delayed: b.delayed is a delayed exchange of this bridge: its messages would loop",
                "orders.delayed=orders.delayed", "orders.delayed is a delayed exchange of this bridge",
                "x".repeat(229) + "=orders", "would be longer than 255 characters");
        refusals.forEach((value, reason) -> {
            config.put("bridge.rabbitmq.delayed-exchanges", value);
            assertThatThrownBy(() -> BridgeSettings.from(config::get)).as(value)
                    .hasMessageContaining("bridge.rabbitmq.delayed-exchanges").hasMessageContaining(reason)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        });
        config.put("bridge.rabbitmq.delayed-exchanges", "x".repeat(228) + "=amq.topic");
        assertThat(BridgeSettings.from(config::get).rabbitMq().consumedQueues()).as("the longest name, and a target of RabbitMQ's own")
                .contains("redis-delay-bridge.delayed." + "x".repeat(228));
    }

    @Test
    void anInboundExchangeIsNeitherATargetNorADelayedExchange() {
        config.put("bridge.rabbitmq.inbound-exchanges", "delay.inbound=delay.in");
        config.put("bridge.rabbitmq.delayed-exchanges", "orders.delayed=delay.in");
        assertThatThrownBy(() -> BridgeSettings.from(config::get))
                .hasMessageContaining("orders.delayed=delay.in: delay.in is in bridge.rabbitmq.inbound-exchanges: its messages would loop");
        config.put("bridge.rabbitmq.delayed-exchanges", "delay.in=orders");
        assertThatThrownBy(() -> BridgeSettings.from(config::get))
                .hasMessageContaining("delay.in=orders: delay.in is in bridge.rabbitmq.inbound-exchanges too");
    }

    @Test
    void anAllowListThatAdmitsNoRoutingKeyOnTheTargetExchangeStopsTheStart() {
        config.put("bridge.rabbitmq.delayed-exchanges", "orders.delayed=orders");
        config.put("bridge.targets.allowed", "kafka:*,rabbitmq:billing/*");
        assertThat(targetProblems()).containsExactly("bridge.rabbitmq.delayed-exchanges: orders.delayed=orders (target"
                + " rabbitmq:orders/{routing-key}): no target rabbitmq:orders/... is in the allow-list (bridge.targets.allowed)");

        config.put("bridge.targets.allowed", "rabbitmq:orders/order.*");
        assertThat(targetProblems()).as("some routing keys are allowed; each message's target is checked as it arrives").isEmpty();
    }

    @Test
    void theRoutingKeyPlaceholderIsForRabbitMqSourcesOnly() {
        config.put("bridge.kafka.default-targets", "delay.inbound=rabbitmq:orders/{routing-key}");
        assertThat(targetProblems()).containsExactly("bridge.kafka.default-targets: delay.inbound=rabbitmq:orders/{routing-key}:"
                + " {routing-key} stands for a RabbitMQ routing key, and a Kafka record has none");

        config.put("bridge.kafka.default-targets", "");
        config.put("bridge.rabbitmq.default-targets", "delay.inbound=rabbitmq:orders/{routing-key}");
        assertThat(targetProblems()).isEmpty();
        config.put("bridge.rabbitmq.default-targets", "delay.inbound=rabbitmq:/{routing-key}");
        assertThat(targetProblems()).as("a key may name any queue but the inbound ones, checked per message").isEmpty();
        config.put("bridge.rabbitmq.default-targets", "delay.inbound=rabbitmq:{routing-key}/x");
        assertThat(targetProblems()).singleElement().asString().contains("exchange name '{routing-key}' is not legal");
    }

    private List<String> targetProblems() {
        BridgeSettings settings = BridgeSettings.from(config::get);
        try {
            TargetSettingsCheck.checkTargets(settings, DispatchWiring.targetPolicy(settings));
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }
}
