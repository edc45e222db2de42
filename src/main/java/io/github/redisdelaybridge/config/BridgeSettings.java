package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.dispatch.DispatchSettings;
import io.github.redisdelaybridge.dispatch.RetryPolicy;
import io.github.redisdelaybridge.dispatch.parking.ParkingSettings;
import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.connection.RedisSecurity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Every {@code bridge.*} setting, read once at startup from config/application.properties (each key
 * can be overridden by an environment variable: upper case, dots and dashes as underscores, e.g.
 * {@code BRIDGE_REDIS_URI}). Bad values fail the start with the key's name.
 */
public record BridgeSettings(
        String instanceId,
        String redisUri,
        boolean redisCluster,
        String keyPrefix,
        int slots,
        long redisTimeoutMs,
        String kafkaBootstrapServers,
        List<String> kafkaInboundTopics,
        Map<String, String> defaultTargets,
        String kafkaDeadLetterTopic,
        long kafkaMaxRequestBytes,
        boolean kafkaAllowTopicAutoCreation,
        long maxDelayMs,
        long maxPayloadBytes,
        List<String> allowedTargets,
        long dedupeWindowMs,
        long cancelWindowMs,
        long deadLetterMaxCount,
        long deadLetterMaxAgeMs,
        DispatchSettings dispatch,
        RetryPolicy retry,
        RabbitMqSettings rabbitMq,
        String adminToken,
        RedisExpectations redisExpectations,
        DeadLetterLimits deadLetterLimits,
        LogFormat logFormat,
        String adminReadToken,
        RedisSecurity redisSecurity,
        KafkaClientProperties kafkaClients,
        ObserveSettings observe,
        KafkaMembership kafkaMembership,
        NameLimits names,
        List<String> adminAllowedHosts,
        List<TargetLimit> targetLimits,
        ParkingSettings parking) {

    /** Reads settings through {@code lookup} (the Camel properties component), which returns null for a missing key. */
    public static BridgeSettings from(Function<String, String> lookup) {
        return from(lookup, Set.of());
    }

    /**
     * As {@link #from(Function)}, with the Kafka client pass-through keys that are set ({@link KafkaClientProperties#keysSet}):
     * they cannot be known in advance, so the caller lists them.
     */
    public static BridgeSettings from(Function<String, String> lookup, Set<String> kafkaPassThroughKeys) {
        SettingsReader r = new SettingsReader(lookup);
        long redisTimeoutMs = r.longValue("bridge.redis.command-timeout-ms");
        String configuredInstanceId = r.optional("bridge.instance-id");
        return new BridgeSettings(
                configuredInstanceId.isEmpty() ? generatedInstanceId() : configuredInstanceId,
                r.text("bridge.redis.uri"),
                r.booleanValue("bridge.redis.cluster"),
                r.text("bridge.redis.key-prefix"),
                r.intValue("bridge.redis.slots"),
                redisTimeoutMs,
                r.text("bridge.kafka.bootstrap-servers"),
                r.list("bridge.kafka.inbound-topics"),
                r.map("bridge.kafka.default-targets"),
                r.text("bridge.dead-letter.kafka-topic"),
                r.longValue("bridge.kafka.max-request-bytes"),
                r.booleanValue("bridge.kafka.allow-topic-auto-creation"),
                r.longValue("bridge.delay.max-ms"),
                r.longValue("bridge.payload.max-bytes"),
                r.list("bridge.targets.allowed"),
                r.longValue("bridge.dedupe.window-ms"),
                r.longValue("bridge.cancel.window-ms"),
                r.longValue("bridge.dead-letter.keep-max-count"),
                r.longValue("bridge.dead-letter.keep-max-age-ms"),
                new DispatchSettings(
                        r.intValue("bridge.dispatch.batch-size"),
                        r.intValue("bridge.dispatch.max-in-flight"),
                        r.longValue("bridge.dispatch.idle-poll-ms"),
                        r.longValue("bridge.lease.duration-ms"),
                        r.longValue("bridge.dispatch.publish-timeout-ms"),
                        redisTimeoutMs,
                        r.intValue("bridge.dispatch.max-in-flight-per-target"),
                        r.longValue("bridge.dispatch.claim-ahead-ms")),
                new RetryPolicy(
                        r.longValue("bridge.retry.base-ms"),
                        r.doubleValue("bridge.retry.factor"),
                        r.longValue("bridge.retry.max-ms"),
                        r.longValue("bridge.retry.max-age-ms"),
                        // a bound by count, kept for deployments that set it; retries are bounded by max-age-ms
                        r.optional("bridge.retry.max-attempts").isEmpty() ? 0 : r.intValue("bridge.retry.max-attempts")),
                RabbitMqSettingsReader.rabbitMqSettings(r),
                r.secret("bridge.admin.token"),
                RedisSettingsReader.redisExpectations(r, redisTimeoutMs),
                deadLetterLimits(r),
                LogFormat.parse(r.optional(LogFormat.KEY)),
                r.secret("bridge.admin.read-token"),
                RedisSettingsReader.redisSecurity(r),
                KafkaClientProperties.read(kafkaPassThroughKeys, r::optional, r::fileContent),
                new ObserveSettings(
                        r.optional("bridge.metrics.overdue-threshold-ms").isEmpty() ? 1_000 : r.longValue("bridge.metrics.overdue-threshold-ms"),
                        r.optional("bridge.metrics.cache-ms").isEmpty() ? 5_000 : r.longValue("bridge.metrics.cache-ms"),
                        r.optional("bridge.health.dispatch-stall-ms").isEmpty() ? 30_000 : r.longValue("bridge.health.dispatch-stall-ms")),
                // static membership needs an id that survives a restart: a generated one does not
                new KafkaMembership(!configuredInstanceId.isEmpty(),
                        r.optional(KafkaMembership.SESSION_TIMEOUT_KEY).isEmpty() ? KafkaMembership.DEFAULT_SESSION_TIMEOUT_MS
                                : r.longValue(KafkaMembership.SESSION_TIMEOUT_KEY)),
                new NameLimits(r.optional("bridge.redis.names.max-per-slot").isEmpty() ? NameLimits.DEFAULT_MAX_NAMES_PER_SLOT
                        : r.longValue("bridge.redis.names.max-per-slot"), r.optional("bridge.redis.names.max-bytes-per-slot").isEmpty()
                        ? NameLimits.DEFAULT_MAX_BYTES_PER_SLOT : r.longValue("bridge.redis.names.max-bytes-per-slot")),
                AdminAuthorizer.allowedHosts(r.list("bridge.admin.allowed-hosts")),
                TargetLimitsReader.read(r),
                new ParkingSettings(
                        r.intValue("bridge.parking.failures-to-park"),
                        r.longValue("bridge.parking.first-probe-ms"),
                        r.longValue("bridge.parking.max-probe-ms"),
                        r.intValue("bridge.parking.return-rate-per-second"),
                        r.longValue("bridge.retry.max-age-ms")));
    }

    private static DeadLetterLimits deadLetterLimits(SettingsReader r) {
        long kafkaMax = r.optional("bridge.dead-letter.kafka-max-bytes").isEmpty() ? 1_000_000 : r.longValue("bridge.dead-letter.kafka-max-bytes");
        long rabbitMqMax = r.optional("bridge.dead-letter.rabbitmq-max-bytes").isEmpty() ? 16_777_216
                : r.longValue("bridge.dead-letter.rabbitmq-max-bytes");
        long keepMax = r.optional("bridge.dead-letter.keep-max-bytes").isEmpty() ? 268_435_456 : r.longValue("bridge.dead-letter.keep-max-bytes");
        for (Map.Entry<String, Long> limit : Map.of("bridge.dead-letter.kafka-max-bytes", kafkaMax,
                "bridge.dead-letter.rabbitmq-max-bytes", rabbitMqMax).entrySet()) {
            if (limit.getValue() < DeadLetterLimits.MIN_CHANNEL_BYTES) {
                throw new IllegalArgumentException("setting " + limit.getKey() + " must be at least " + DeadLetterLimits.MIN_CHANNEL_BYTES
                        + " (a dead letter without the message must fit), got " + limit.getValue());
            }
        }
        long recordMax = r.longValue("bridge.payload.max-bytes") + DeadLetterLimits.RECORD_ROOM_BYTES;
        long slots = r.intValue("bridge.redis.slots");
        if (keepMax / Math.max(1, slots) < 4 * recordMax) {
            // each slot's share must hold several of the largest records, or one dead letter would push out all the others
            throw new IllegalArgumentException("setting bridge.dead-letter.keep-max-bytes (" + keepMax + ") must be at least 4 x"
                    + " bridge.redis.slots (" + slots + ") x (bridge.payload.max-bytes + 65536) = " + 4 * slots * recordMax);
        }
        return new DeadLetterLimits(kafkaMax, rabbitMqMax, keepMax, recordMax);
    }

    private static String generatedInstanceId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "bridge";
        }
        return host + "-" + ProcessHandle.current().pid() + "-" + Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }

    /** Without the tokens and passwords (the nested settings print none either). */
    @Override
    public String toString() {
        return "BridgeSettings[instance " + instanceId + ", Redis " + io.github.redisdelaybridge.store.connection.RedisConnection.redacted(redisUri)
                + ", " + redisSecurity + ", Kafka " + kafkaBootstrapServers + ", " + kafkaClients + ", " + rabbitMq
                + ", admin token " + (adminToken.isEmpty() ? "not set" : "set") + ", read token " + (adminReadToken.isEmpty() ? "not set" : "set") + "]";
    }
}
