package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.BridgeMain;
import io.github.redisdelaybridge.testkit.ChildProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bridge process (BridgeMain, configured through environment variables as an operator would) stops a
 * start with bad configuration: exit code 2, one line per problem, no stack trace, before it connects to
 * anything.
 */
class InvalidConfigurationExitTest {

    @Test
    void unknownVariableAndShortLeaseExitWithOneLineEach() throws Exception {
        String log = exits("invalid-config-keys", Map.of("BRIDGE_KAFKA_DEFAULT_TARGET", "delay.inbound=kafka:out",
                "BRIDGE_LEASE_DURATION_MS", "1000"));

        assertThat(log).contains("redis-delay-bridge: configuration: unknown environment variable BRIDGE_KAFKA_DEFAULT_TARGET:"
                + " did you mean BRIDGE_KAFKA_DEFAULT_TARGETS (bridge.kafka.default-targets)?\n");
        assertThat(log).contains("redis-delay-bridge: configuration: bridge.lease.duration-ms (1000) must be greater than"
                + " bridge.dispatch.publish-timeout-ms (20000)");
    }

    @Test
    void aDefaultTargetTypoExitsInsteadOfDeadLetteringEveryMessage() throws Exception {
        String log = exits("invalid-config-target", Map.of("BRIDGE_KAFKA_DEFAULT_TARGETS", "delay.inbound=kafak:orders"));

        assertThat(log).contains("redis-delay-bridge: configuration: bridge.kafka.default-targets: delay.inbound=kafak:orders:"
                + " 'kafak:orders' names no known broker");
    }

    @Test
    void kafkaPropertiesThatWeakenDeliveryExitWithOneLineEach() throws Exception {
        String log = exits("invalid-config-kafka-delivery", Map.of("BRIDGE_KAFKA_PRODUCER_ACKS", "1",
                "BRIDGE_KAFKA_CONSUMER_ENABLE_AUTO_COMMIT", "true"));

        assertThat(log).contains("redis-delay-bridge: configuration: setting bridge.kafka.producer.acks: acks=1 is refused: ");
        assertThat(log).contains("redis-delay-bridge: configuration: setting bridge.kafka.consumer.enable.auto.commit: enable.auto.commit=true"
                + " is refused: ");
    }

    @Test
    void aRedisUriThatCannotBeParsedExitsWithoutShowingIt() throws Exception {
        String log = exits("invalid-config-redis-uri", Map.of("BRIDGE_REDIS_URI", "redis://bridge:pa%ss-q7@127.0.0.1:6379"));

        assertThat(log).contains("redis-delay-bridge: configuration: setting bridge.redis.uri: cannot parse").doesNotContain("q7");
    }

    @Test
    void aFloorAboveTheNumberOfReplicasExitsWithOneLine() throws Exception {
        String log = exits("invalid-config-replicas", Map.of("BRIDGE_REDIS_WAIT_REPLICAS", "1", "BRIDGE_REDIS_MIN_REPLICAS", "2"));

        assertThat(log).contains("redis-delay-bridge: configuration: setting bridge.redis.min-replicas (2) must not exceed wait-replicas (1);"
                + " set wait-replicas=auto to wait for every connected replica with that floor\n");
    }

    private static String exits(String name, Map<String, String> environment) throws Exception {
        try (ChildProcess bridge = ChildProcess.java(name, BridgeMain.class.getName(), List.of(), environment).start()) {
            Integer exitCode = bridge.awaitExit(Duration.ofSeconds(120));
            String log = bridge.logText();
            assertThat(exitCode).as("exit code; output:%n%s", log).isEqualTo(2);
            assertThat(log).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain(BridgeMain.READY);
            assertThat(log.lines().filter(line -> line.startsWith("redis-delay-bridge: configuration:"))).isNotEmpty();
            return log;
        }
    }
}
