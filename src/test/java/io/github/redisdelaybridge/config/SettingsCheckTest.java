package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The configuration checked as a whole at start ({@link SettingsCheck}); every problem is one line. */
class SettingsCheckTest {

    private static final Set<String> ROUTE_KEYS = RoutePlaceholders.placeholderKeys("file:routes/*.yaml");

    private Map<String, String> config;
    private Map<String, String> environment;

    @BeforeEach
    void loadShippedConfig() throws IOException {
        config = ShippedConfig.settings();
        environment = new HashMap<>(Map.of("PATH", "/usr/bin", "HOME", "/root", "JAVA_OPTS", "-Xmx1g"));
    }

    @Test
    void theShippedConfigurationHasNoUnknownKey() {
        // every key of config/application.properties is read by BridgeSettings or a route
        assertThat(read().redisUri()).isEqualTo("redis://127.0.0.1:6379");
    }

    @Test
    void routePlaceholdersAreKnownKeys() {
        assertThat(ROUTE_KEYS).contains("bridge.lease.reap-interval-ms", "bridge.kafka.group-id", "bridge.kafka.inbound-batch-size");
        assertThat(ROUTE_KEYS).allMatch(key -> key.startsWith("bridge."));
    }

    @Test
    void anUnknownKeyInTheFileStopsTheStartNamingTheClosestKnownKey() {
        config.put("bridge.kafka.default-target", "delay.inbound=kafka:out");

        assertThat(problems()).containsExactly(
                "unknown setting bridge.kafka.default-target: did you mean bridge.kafka.default-targets?");
    }

    @Test
    void anUnknownEnvironmentVariableStopsTheStartNamingTheClosestKnownVariable() {
        environment.put("BRIDGE_REDIS_URL", "redis://elsewhere:6379");

        assertThat(problems()).containsExactly(
                "unknown environment variable BRIDGE_REDIS_URL: did you mean BRIDGE_REDIS_URI (bridge.redis.uri)?");
    }

    @Test
    void knownVariablesAndTheLaunchersOwnPass() {
        environment.put("BRIDGE_REDIS_URI", "redis://elsewhere:6379");
        environment.put("BRIDGE_REDIS_KEY_PREFIX", "p");
        environment.put("BRIDGE_LEASE_REAP_INTERVAL_MS", "1000");
        environment.put("BRIDGE_HOME", "/opt/redis-delay-bridge");
        config.put("bridge.home", "/opt/redis-delay-bridge");

        assertThat(problems()).isEmpty();
    }

    @Test
    void variablesShapedLikeKubernetesServiceLinksAreLeftAlone() {
        for (String name : List.of("BRIDGE_SERVICE_HOST", "BRIDGE_SERVICE_PORT", "BRIDGE_SERVICE_PORT_HTTP", "BRIDGE_PORT",
                "BRIDGE_PORT_8080_TCP", "BRIDGE_PORT_8080_TCP_ADDR")) {
            environment.put(name, "10.0.0.1");
        }

        assertThat(problems()).isEmpty();
    }

    @Test
    void aCamelPortVariableWhichCamelIgnoresStopsTheStart() {
        environment.put("CAMEL_SERVER_PORT", "9090");
        environment.put("CAMEL_SERVER_HOST", "0.0.0.0");

        assertThat(problems()).singleElement().asString()
                .startsWith("environment variable CAMEL_SERVER_PORT is ignored by Camel Main").contains("-D");
    }

    @Test
    void aLeaseNotLongerThanThePublishTimeoutPlusTheClaimAheadStopsTheStart() {
        config.put("bridge.lease.duration-ms", "20050");
        config.put("bridge.dispatch.publish-timeout-ms", "20000");
        config.put("bridge.dispatch.claim-ahead-ms", "50");

        assertThat(problems()).singleElement().asString()
                .startsWith("bridge.lease.duration-ms (20050) must be greater than bridge.dispatch.publish-timeout-ms (20000)"
                        + " + bridge.dispatch.claim-ahead-ms (50)");

        config.put("bridge.lease.duration-ms", "20051");
        assertThat(problems()).isEmpty();
    }

    @Test
    void aDispatchStallThresholdAHealthyCycleCanReachStopsTheStart() {
        config.put("bridge.dispatch.idle-poll-ms", "100");
        config.put("bridge.redis.command-timeout-ms", "5000");
        config.put("bridge.health.dispatch-stall-ms", "12100");

        assertThat(problems()).singleElement().asString()
                .startsWith("bridge.health.dispatch-stall-ms (12100) must be greater than the longest healthy dispatch cycle, 12100 ms");

        config.put("bridge.health.dispatch-stall-ms", "12101");
        assertThat(problems()).isEmpty();
    }

    @Test
    void aBadValueIsOneLineNamingItsKey() {
        config.put("bridge.redis.slots", "many");

        assertThat(problems()).singleElement().asString().contains("bridge.redis.slots").doesNotContain("\n");
    }

    @Test
    void targetPatternsAreReadInOrderAndTheirVariablesAreKnown() {
        config.put("bridge.targets.limits", "orders, audit");
        config.put("bridge.targets.orders.pattern", "kafka:orders.*");
        config.put("bridge.targets.orders.rate-per-second", "5000");
        config.put("bridge.targets.orders.max-in-flight", "200");
        environment.put("BRIDGE_TARGETS_AUDIT_PATTERN", "rabbitmq:audit/*");
        environment.put("BRIDGE_TARGETS_AUDIT_MAX_LATENESS_MS", "60000");

        assertThat(SettingsCheck.read(key -> config.containsKey(key) ? config.get(key)
                        : environment.get(key.toUpperCase().replace('.', '_').replace('-', '_')), config.keySet(), environment.keySet(), ROUTE_KEYS)
                .targetLimits()).containsExactly(new TargetLimit("orders", "kafka:orders.*", 5000, 200, 0),
                new TargetLimit("audit", "rabbitmq:audit/*", 0, 0, 60_000));
    }

    @Test
    void aMistakeInATargetPatternStopsTheStartWithOneLine() {
        Map<String, String> base = new HashMap<>(config);
        List<Map.Entry<Map<String, String>, String>> cases = List.of(
                Map.entry(Map.of("bridge.targets.limits", "Orders!", "bridge.targets.Orders!.pattern", "kafka:o"), "is not a name"),
                Map.entry(Map.of("bridge.targets.limits", "o,o", "bridge.targets.o.pattern", "kafka:o", "bridge.targets.o.max-in-flight", "1"),
                        "names 'o' twice"),
                Map.entry(Map.of("bridge.targets.limits", "o", "bridge.targets.o.rate-per-second", "5"), "bridge.targets.o.pattern must be a glob"),
                Map.entry(Map.of("bridge.targets.limits", "o", "bridge.targets.o.pattern", "kafka:o"), "sets none of"),
                Map.entry(Map.of("bridge.targets.limits", "o", "bridge.targets.o.pattern", "kafka:o", "bridge.targets.o.rate-per-second", "-5"),
                        "bridge.targets.o.rate-per-second must be a non-negative whole number"));
        for (Map.Entry<Map<String, String>, String> c : cases) {
            config.clear();
            config.putAll(base);
            config.putAll(c.getKey());
            assertThat(problems()).as(c.getKey().toString()).singleElement().asString().contains(c.getValue()).doesNotContain("\n");
        }
    }

    @Test
    void keysOfAPatternNotNamedInTheListAreUnknown() {
        config.put("bridge.targets.orders.pattern", "kafka:orders.*");

        assertThat(problems()).singleElement().asString().startsWith("unknown setting bridge.targets.orders.pattern");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        config.put("bridge.kafka.default-target", "x");
        environment.put("BRIDGE_KAFKA_DEFAULT_TARGET", "x");
        config.put("bridge.lease.duration-ms", "1000");

        assertThat(problems()).hasSize(3);
    }

    @Test
    void aDefaultTargetThatCannotBeParsedStopsTheStart() {
        config.put("bridge.kafka.default-targets", "delay.inbound=kafka:orders/expired");

        assertThat(targetProblems()).singleElement().asString()
                .startsWith("bridge.kafka.default-targets: delay.inbound=kafka:orders/expired: 'kafka:orders/expired' is not kafka:<topic>");
    }

    @Test
    void aDefaultTargetForATopicTheBridgeDoesNotConsumeStopsTheStart() {
        config.put("bridge.kafka.default-targets", "delay.inbnd=kafka:orders.expired");

        assertThat(targetProblems()).containsExactly(
                "bridge.kafka.default-targets: delay.inbnd=kafka:orders.expired: delay.inbnd is not in bridge.kafka.inbound-topics [delay.inbound]");
    }

    @Test
    void aDefaultTargetOnABrokerThatIsOffOrOutsideTheAllowListStopsTheStart() {
        config.put("bridge.kafka.default-targets", "delay.inbound=rabbitmq:/orders");
        assertThat(targetProblems()).singleElement().asString().contains("no rabbitmq publisher");

        config.put("bridge.kafka.default-targets", "delay.inbound=kafka:billing.expired");
        config.put("bridge.targets.allowed", "kafka:orders.*");
        assertThat(targetProblems()).singleElement().asString().contains("not in the allow-list");

        config.put("bridge.targets.allowed", "kafka:*");
        config.put("bridge.kafka.default-targets", "delay.inbound=kafka:delay.inbound");
        assertThat(targetProblems()).singleElement().asString().contains("inbound channel").contains("loop");
    }

    @Test
    void rabbitMqDefaultTargetsAreCheckedWhenRabbitMqIsOn() {
        config.put("bridge.rabbitmq.default-targets", "delay.inbound=rabbitmq:nope");
        assertThat(targetProblems()).as("RabbitMQ off: its settings are not used").isEmpty();

        config.put("bridge.rabbitmq.enabled", "true");
        assertThat(targetProblems()).singleElement().asString()
                .startsWith("bridge.rabbitmq.default-targets: delay.inbound=rabbitmq:nope: 'rabbitmq:nope' is not rabbitmq:<exchange>/<routing-key>");

        config.put("bridge.rabbitmq.default-targets", "delay.inbound=rabbitmq:/orders,delay.inbound2=kafka:orders");
        assertThat(targetProblems()).singleElement().asString().contains("delay.inbound2 is not in bridge.rabbitmq.inbound-queues");
    }

    @Test
    void goodDefaultTargetsPass() {
        config.put("bridge.kafka.inbound-topics", "delay.inbound,orders.inbound");
        config.put("bridge.kafka.default-targets", "delay.inbound=kafka:delay.outbound, orders.inbound = kafka:orders.expired");

        assertThat(targetProblems()).isEmpty();
    }

    @Test
    void allowListPatternsThatMatchNoTargetStopTheStart() {
        config.put("bridge.targets.allowed", "kafak:*, kafka:orders/expired, kafka:*, rabbitmq:billing/*, *, kaf*, kafka:orders");

        assertThat(targetProblems()).containsExactly(
                "bridge.targets.allowed: pattern 'kafak:*' matches no target (targets start with kafka: or rabbitmq:)",
                "bridge.targets.allowed: pattern 'kafka:orders/expired' matches no target: 'kafka:orders/expired' is not kafka:<topic>"
                        + " with a legal topic name (1-249 of a-z A-Z 0-9 . _ -)");
    }

    @Test
    void anEmptyAllowListStopsTheStart() {
        config.put("bridge.targets.allowed", " ");

        assertThat(targetProblems()).singleElement().asString().startsWith("bridge.targets.allowed is empty");
    }

    @Test
    void closestIsByEditDistance() {
        assertThat(KeySuggestions.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(KeySuggestions.editDistance("", "abc")).isEqualTo(3);
        assertThat(KeySuggestions.closest("bridge.redis.slot", Set.of("bridge.redis.slots", "bridge.redis.uri"))).isEqualTo("bridge.redis.slots");
    }

    private BridgeSettings read() {
        return SettingsCheck.read(config::get, config.keySet(), environment.keySet(), ROUTE_KEYS);
    }

    private List<String> problems() {
        try {
            read();
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }

    /** As DispatchWiring builds the policy: the inbound channels refused, the enabled brokers. */
    private List<String> targetProblems() {
        BridgeSettings settings = read();
        java.util.Set<String> inbound = new java.util.HashSet<>();
        settings.kafkaInboundTopics().forEach(topic -> inbound.add("kafka:" + topic));
        java.util.Set<String> brokers = new java.util.HashSet<>(Set.of("kafka"));
        if (settings.rabbitMq().enabled()) {
            brokers.add("rabbitmq");
            settings.rabbitMq().inboundQueues().forEach(queue -> inbound.add("rabbitmq:/" + queue));
        }
        try {
            TargetSettingsCheck.checkTargets(settings, new TargetPolicy(settings.allowedTargets(), inbound, brokers));
            return List.of();
        } catch (InvalidSettingsException e) {
            return e.problems();
        }
    }

    @Test
    void problemsThrownAreInvalidSettings() {
        config.put("bridge.lease.duration-ms", "1");
        assertThatThrownBy(this::read).isInstanceOf(InvalidSettingsException.class);
    }
}
