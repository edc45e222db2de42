package io.github.redisdelaybridge.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.dispatch.DispatchSettings;
import io.github.redisdelaybridge.dispatch.RetryPolicy;
import io.github.redisdelaybridge.dispatch.parking.ParkingSettings;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BridgeSettingsTest {

    private static final Path SHIPPED_CONFIG = Path.of("config/application.properties");

    private Map<String, String> config;

    @BeforeEach
    void loadShippedConfig() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(SHIPPED_CONFIG, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        config = new HashMap<>();
        properties.stringPropertyNames().forEach(name -> config.put(name, properties.getProperty(name)));
    }

    @Test
    void shippedConfigurationIsCompleteAndReadAsDocumented() {
        BridgeSettings settings = settings();

        assertThat(settings.redisUri()).isEqualTo("redis://127.0.0.1:6379");
        assertThat(settings.keyPrefix()).isEqualTo("rdb");
        assertThat(settings.slots()).isEqualTo(1);
        assertThat(settings.redisTimeoutMs()).isEqualTo(5_000);
        assertThat(settings.kafkaBootstrapServers()).isEqualTo("127.0.0.1:9092");
        assertThat(settings.kafkaInboundTopics()).containsExactly("delay.inbound");
        assertThat(settings.defaultTargets()).isEmpty();
        assertThat(settings.kafkaDeadLetterTopic()).isEqualTo("delay.dlq");
        assertThat(settings.kafkaMaxRequestBytes()).isEqualTo(16_777_216);
        assertThat(settings.maxDelayMs()).isEqualTo(31_536_000_000L);
        assertThat(settings.maxPayloadBytes()).isEqualTo(4_194_304);
        assertThat(settings.allowedTargets()).containsExactly("kafka:*", "rabbitmq:*");
        assertThat(settings.dedupeWindowMs()).isEqualTo(86_400_000);
        assertThat(settings.cancelWindowMs()).isEqualTo(86_400_000);
        assertThat(settings.adminToken()).isEmpty();
        assertThat(settings.deadLetterMaxCount()).isEqualTo(100_000);
        assertThat(settings.deadLetterMaxAgeMs()).isEqualTo(604_800_000L);
        assertThat(settings.dispatch()).isEqualTo(new DispatchSettings(1_000, 5_000, 100, 60_000, 20_000, 5_000, 2_500, 50));
        assertThat(settings.retry()).isEqualTo(new RetryPolicy(1_000, 2, 60_000, 86_400_000, 0));
        assertThat(settings.parking()).isEqualTo(new ParkingSettings(3, 1_000, 5_000, 2_000, 86_400_000));
        assertThat(settings.kafkaMembership()).as("no instance id shipped: dynamic members").isEqualTo(new KafkaMembership(false, 15_000));
    }

    @Test
    void everyKeyIsReadFromTheLookupNotHardCoded() {
        config.put("bridge.instance-id", "node-7");
        config.put("bridge.redis.uri", "redis://redis.example:6380/2");
        config.put("bridge.redis.cluster", "true");
        config.put("bridge.redis.key-prefix", "custom");
        config.put("bridge.redis.slots", "16");
        config.put("bridge.redis.command-timeout-ms", "1234");
        config.put("bridge.kafka.bootstrap-servers", "k1:9092,k2:9092");
        config.put("bridge.kafka.inbound-topics", "in.a,in.b");
        config.put("bridge.kafka.default-targets", "in.a=kafka:out.a");
        config.put("bridge.dead-letter.kafka-topic", "dlq.custom");
        config.put("bridge.kafka.max-request-bytes", "2048");
        config.put("bridge.kafka.allow-topic-auto-creation", "true");
        config.put("bridge.delay.max-ms", "3600000");
        config.put("bridge.payload.max-bytes", "4096");
        config.put("bridge.targets.allowed", "kafka:out.*");
        config.put("bridge.dedupe.window-ms", "777");
        config.put("bridge.cancel.window-ms", "555");
        config.put("bridge.admin.token", "s3cret");
        config.put("bridge.dispatch.batch-size", "50");
        config.put("bridge.dispatch.max-in-flight", "300");
        config.put("bridge.dispatch.max-in-flight-per-target", "70");
        config.put("bridge.dead-letter.keep-max-count", "99");
        config.put("bridge.dead-letter.keep-max-age-ms", "8888");
        config.put("bridge.dispatch.idle-poll-ms", "25");
        config.put("bridge.dispatch.claim-ahead-ms", "20");
        config.put("bridge.lease.duration-ms", "30000");
        config.put("bridge.dispatch.publish-timeout-ms", "9000");
        config.put("bridge.retry.base-ms", "10");
        config.put("bridge.retry.factor", "1.5");
        config.put("bridge.retry.max-ms", "900");
        config.put("bridge.retry.max-age-ms", "7000");
        config.put("bridge.retry.max-attempts", "4");
        config.put("bridge.dead-letter.kafka-max-bytes", "20000");
        config.put("bridge.dead-letter.rabbitmq-max-bytes", "30000");
        config.put("bridge.dead-letter.keep-max-bytes", "40000000");
        config.put("bridge.metrics.overdue-threshold-ms", "2500");
        config.put("bridge.metrics.cache-ms", "100");
        config.put("bridge.health.dispatch-stall-ms", "45000");
        config.put("bridge.kafka.session-timeout-ms", "20000");
        config.put("bridge.redis.names.max-per-slot", "500");
        config.put("bridge.redis.names.max-bytes-per-slot", "65536");
        config.put("bridge.parking.failures-to-park", "5");
        config.put("bridge.parking.first-probe-ms", "200");
        config.put("bridge.parking.max-probe-ms", "4000");
        config.put("bridge.parking.return-rate-per-second", "300");

        BridgeSettings read = settings();
        // RabbitMQ settings have a test of their own (RabbitMqSettingsTest).
        assertThat(read).isEqualTo(new BridgeSettings("node-7", "redis://redis.example:6380/2", true, "custom", 16, 1234,
                "k1:9092,k2:9092", List.of("in.a", "in.b"), Map.of("in.a", "kafka:out.a"), "dlq.custom", 2048, true, 3_600_000, 4096,
                List.of("kafka:out.*"), 777, 555, 99, 8888, new DispatchSettings(50, 300, 25, 30_000, 9_000, 1234, 70, 20), new RetryPolicy(10, 1.5, 900, 7_000, 4),
                read.rabbitMq(), "s3cret", read.redisExpectations(), new DeadLetterLimits(20_000, 30_000, 40_000_000, 4096 + 65_536),
                LogFormat.TEXT, "", read.redisSecurity(), KafkaClientProperties.none(), new ObserveSettings(2_500, 100, 45_000),
                new KafkaMembership(true, 20_000), new NameLimits(500, 65_536), List.of(), List.of(), new ParkingSettings(5, 200, 4_000, 300, 7_000)));
    }

    @Test
    void valuesAreStripped() {
        config.put("bridge.redis.slots", "  4 ");
        config.put("bridge.redis.key-prefix", " spaced ");
        config.put("bridge.instance-id", "  node-1\t");

        BridgeSettings settings = settings();

        assertThat(settings.slots()).isEqualTo(4);
        assertThat(settings.keyPrefix()).isEqualTo("spaced");
        assertThat(settings.instanceId()).isEqualTo("node-1");
    }

    @ParameterizedTest
    @ValueSource(strings = {"bridge.redis.uri", "bridge.redis.key-prefix", "bridge.redis.slots", "bridge.redis.command-timeout-ms",
            "bridge.kafka.bootstrap-servers", "bridge.dead-letter.kafka-topic", "bridge.kafka.max-request-bytes",
            "bridge.delay.max-ms", "bridge.payload.max-bytes", "bridge.dedupe.window-ms", "bridge.dispatch.batch-size",
            "bridge.dispatch.idle-poll-ms", "bridge.dispatch.claim-ahead-ms", "bridge.lease.duration-ms", "bridge.dispatch.publish-timeout-ms",
            "bridge.retry.base-ms", "bridge.retry.factor", "bridge.retry.max-ms", "bridge.retry.max-age-ms"})
    void missingOrBlankRequiredKeyFailsNamingIt(String key) {
        config.remove(key);
        assertFailsNaming(key);

        config.put(key, "   ");
        assertFailsNaming(key);
    }

    @ParameterizedTest
    @ValueSource(strings = {"bridge.redis.slots", "bridge.redis.command-timeout-ms", "bridge.kafka.max-request-bytes",
            "bridge.delay.max-ms", "bridge.payload.max-bytes", "bridge.dedupe.window-ms", "bridge.dispatch.batch-size",
            "bridge.dispatch.idle-poll-ms", "bridge.dispatch.claim-ahead-ms", "bridge.lease.duration-ms", "bridge.dispatch.publish-timeout-ms",
            "bridge.retry.base-ms", "bridge.retry.max-ms", "bridge.retry.max-age-ms", "bridge.retry.max-attempts"})
    void negativeOrNonNumericWholeNumberFailsNamingIt(String key) {
        for (String bad : List.of("-1", "abc", "1.5", "1e3", "99999999999999999999")) {
            config.put(key, bad);
            assertFailsNaming(key);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"bridge.redis.slots", "bridge.dispatch.batch-size", "bridge.retry.max-attempts"})
    void intSettingBeyondIntRangeFailsNamingIt(String key) {
        config.put(key, Long.toString(Integer.MAX_VALUE + 1L));

        assertFailsNaming(key);
    }

    @Test
    void retryMaxAttemptsOfThePreviousReleaseStillBoundsByCountAndIsOptional() {
        config.put("bridge.retry.max-attempts", "10");
        assertThat(settings().retry().maxAttempts()).isEqualTo(10);

        config.remove("bridge.retry.max-attempts");
        assertThat(settings().retry().maxAttempts()).as("absent: no bound by count").isZero();

        config.put("bridge.retry.max-attempts", " ");
        assertThat(settings().retry().maxAttempts()).as("blank: no bound by count").isZero();
    }

    @Test
    void leaseOfZeroFailsNamingIt() {
        // the lease deadline is the lease's token: a re-claim is only sure to get a later one with leases of 1 ms or more
        config.put("bridge.lease.duration-ms", "0");

        assertFailsNaming("bridge.lease.duration-ms");
    }

    @Test
    void claimAheadBeyondASecondFailsNamingIt() {
        config.put("bridge.dispatch.claim-ahead-ms", "1000");
        assertThat(settings().dispatch().claimAheadMs()).isEqualTo(1_000);

        config.put("bridge.dispatch.claim-ahead-ms", "1001");
        assertFailsNaming("bridge.dispatch.claim-ahead-ms");
    }

    @Test
    void replicasAreAutoWithNoFloorByDefaultAndANumberOrAFloorWhereSet() {
        assertThat(settings().redisExpectations().durability())
                .isEqualTo(new DurabilitySettings(DurabilitySettings.EVERY_CONNECTED_REPLICA, 0, DurabilitySettings.LocalFsync.AUTO, 1_000));
        config.remove("bridge.redis.wait-replicas");
        config.remove("bridge.redis.min-replicas");
        assertThat(settings().redisExpectations().durability().waitReplicasCode()).as("absent: auto").isEqualTo("auto");
        config.put("bridge.redis.wait-replicas", "AUTO");
        config.put("bridge.redis.min-replicas", "1");
        assertThat(settings().redisExpectations().durability().replicasRequired()).isEqualTo(1);
        config.put("bridge.redis.wait-replicas", "2");
        assertThat(settings().redisExpectations().durability().waitReplicas()).isEqualTo(2);
    }

    @Test
    void replicasThatAreNeitherAutoNorANumberOrAFloorAboveTheNumberAreRefused() {
        config.put("bridge.redis.wait-replicas", "all");
        assertThatThrownBy(this::settings).hasMessage("setting bridge.redis.wait-replicas must be auto or a number of replicas (0 or more),"
                + " got 'all'");
        config.put("bridge.redis.wait-replicas", "-1");
        assertFailsNaming("bridge.redis.wait-replicas");
        config.put("bridge.redis.wait-replicas", "1");
        config.put("bridge.redis.min-replicas", "2");
        assertThatThrownBy(this::settings).hasMessage("setting bridge.redis.min-replicas (2) must not exceed wait-replicas (1); set"
                + " wait-replicas=auto to wait for every connected replica with that floor");
        config.put("bridge.redis.wait-replicas", "auto");
        config.put("bridge.redis.min-replicas", "-1");
        assertFailsNaming("bridge.redis.min-replicas");
    }

    @Test
    void nonNumericRetryFactorFailsNamingIt() {
        config.put("bridge.retry.factor", "double");

        assertFailsNaming("bridge.retry.factor");
    }

    @Test
    void notANumberRetryFactorFailsTheStart() {
        config.put("bridge.retry.factor", "NaN");

        assertThatThrownBy(this::settings).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("factor=NaN");
    }

    @Test
    void defaultTargetsAreParsedAsNameValuePairs() {
        config.put("bridge.kafka.default-targets", "a=kafka:x, b = rabbitmq:ex/rk ,c=rabbitmq:/q=1");

        assertThat(settings().defaultTargets())
                .containsExactly(Map.entry("a", "kafka:x"), Map.entry("b", "rabbitmq:ex/rk"), Map.entry("c", "rabbitmq:/q=1"));
    }

    @Test
    void defaultTargetWithoutNameFailsNamingTheKey() {
        for (String bad : List.of("kafka:x", "=kafka:x", "a=kafka:x,broken")) {
            config.put("bridge.kafka.default-targets", bad);
            assertFailsNaming("bridge.kafka.default-targets");
        }
    }

    @Test
    void listsDropBlankEntries() {
        config.put("bridge.kafka.inbound-topics", " a , ,b,, ");
        config.put("bridge.targets.allowed", "");

        BridgeSettings settings = settings();

        assertThat(settings.kafkaInboundTopics()).containsExactly("a", "b");
        assertThat(settings.allowedTargets()).isEmpty();
    }

    @Test
    void blankInstanceIdGeneratesAUniqueOne() {
        config.put("bridge.instance-id", "  ");

        String first = settings().instanceId();
        String second = settings().instanceId();

        assertThat(first).isNotBlank().contains("-" + ProcessHandle.current().pid() + "-");
        assertThat(second).isNotBlank().isNotEqualTo(first);
    }

    @Test
    void onlyAnInstanceIdThatIsSetMakesTheKafkaConsumersStaticMembers() {
        config.put("bridge.instance-id", "bridge-0");
        assertThat(settings().kafkaMembership().staticMembers()).isTrue();
        config.put("bridge.instance-id", " ");
        assertThat(settings().kafkaMembership().staticMembers()).as("a generated id changes with every start").isFalse();
    }

    @Test
    void allowedHostsAreAListOfHostNames() {
        assertThat(settings().adminAllowedHosts()).as("as shipped: loopback names only").isEmpty();
        config.put("bridge.admin.allowed-hosts", " redis-delay-bridge, *.redis-delay-bridge ,bridge.example:8080");
        assertThat(settings().adminAllowedHosts()).containsExactly("redis-delay-bridge", "*.redis-delay-bridge", "bridge.example:8080");
        config.put("bridge.admin.allowed-hosts", "https://bridge.example");
        assertThatThrownBy(this::settings).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bridge.admin.allowed-hosts").hasMessageContaining("'https://bridge.example'");
    }

    @Test
    void theSessionTimeoutHasADefaultAndAFloor() {
        config.remove("bridge.kafka.session-timeout-ms");
        assertThat(settings().kafkaMembership().sessionTimeoutMs()).as("a configuration file from before the setting").isEqualTo(15_000);
        config.put("bridge.kafka.session-timeout-ms", "6000");
        assertThat(settings().kafkaMembership().sessionTimeoutMs()).isEqualTo(6_000);
        config.put("bridge.kafka.session-timeout-ms", "5999");
        assertThatThrownBy(this::settings).hasMessageContaining("bridge.kafka.session-timeout-ms must be at least 6000");
    }

    @Test
    void missingInstanceIdGeneratesOne() {
        config.remove("bridge.instance-id");

        assertThat(settings().instanceId()).isNotBlank();
    }

    @Test
    void invalidRetryPolicyFailsTheStart() {
        config.put("bridge.retry.base-ms", "5000");
        config.put("bridge.retry.max-ms", "1000");

        assertThatThrownBy(this::settings).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retry");
    }

    private BridgeSettings settings() {
        return BridgeSettings.from(config::get);
    }

    @Test
    void deadLetterLimitsTooSmallForWhatMustFitAreRefused() {
        config.put("bridge.dead-letter.kafka-max-bytes", "1000");
        assertFailsNaming("bridge.dead-letter.kafka-max-bytes");
        config.remove("bridge.dead-letter.kafka-max-bytes");

        config.put("bridge.dead-letter.rabbitmq-max-bytes", "16383");
        assertFailsNaming("bridge.dead-letter.rabbitmq-max-bytes");
        config.remove("bridge.dead-letter.rabbitmq-max-bytes");

        // each slot's share must hold four of the largest records (payload.max-bytes + 64 KiB)
        config.put("bridge.payload.max-bytes", "1000000");
        config.put("bridge.redis.slots", "4");
        config.put("bridge.dead-letter.keep-max-bytes", "10000000");
        assertFailsNaming("bridge.dead-letter.keep-max-bytes");
        config.put("bridge.dead-letter.keep-max-bytes", Long.toString(4 * 4 * (1_000_000 + 65_536)));
        assertThat(settings().deadLetterLimits().keepMaxBytes()).isEqualTo(4 * 4 * (1_000_000 + 65_536));
    }

    private void assertFailsNaming(String key) {
        assertThatThrownBy(this::settings)
                .as("settings with %s = '%s'", key, config.get(key))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key);
    }
}
