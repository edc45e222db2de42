package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.dispatch.DispatchSettings;
import io.github.redisdelaybridge.dispatch.RetryPolicy;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import io.github.redisdelaybridge.store.connection.RedisSecurity;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
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
        List<String> adminAllowedHosts) {

    /** Reads settings through {@code lookup} (the Camel properties component), which returns null for a missing key. */
    public static BridgeSettings from(Function<String, String> lookup) {
        return from(lookup, Set.of());
    }

    /**
     * As {@link #from(Function)}, with the Kafka client pass-through keys that are set ({@link KafkaClientProperties#keysSet}):
     * they cannot be known in advance, so the caller lists them.
     */
    public static BridgeSettings from(Function<String, String> lookup, Set<String> kafkaPassThroughKeys) {
        Reader r = new Reader(lookup);
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
                rabbitMqSettings(r),
                r.secret("bridge.admin.token"),
                redisExpectations(r, redisTimeoutMs),
                deadLetterLimits(r),
                LogFormat.parse(r.optional(LogFormat.KEY)),
                r.secret("bridge.admin.read-token"),
                redisSecurity(r),
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
                AdminAuthorizer.allowedHosts(r.list("bridge.admin.allowed-hosts")));
    }

    private static RedisSecurity redisSecurity(Reader r) {
        RedisSecurity.VerifyPeer verifyPeer;
        String mode = r.optional("bridge.redis.tls.verify-peer");
        try {
            verifyPeer = mode.isEmpty() ? RedisSecurity.VerifyPeer.FULL : RedisSecurity.VerifyPeer.parse(mode);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.redis.tls.verify-peer " + e.getMessage());
        }
        return new RedisSecurity(r.optional("bridge.redis.username"), r.secret("bridge.redis.password"),
                r.path("bridge.redis.tls.truststore"), r.secret("bridge.redis.tls.truststore-password"),
                r.path("bridge.redis.tls.keystore"), r.secret("bridge.redis.tls.keystore-password"), verifyPeer);
    }

    private static TlsStores rabbitMqTls(Reader r) {
        boolean enabled = !r.optional("bridge.rabbitmq.tls.enabled").isEmpty() && r.booleanValue("bridge.rabbitmq.tls.enabled");
        TlsStores stores = new TlsStores("bridge.rabbitmq.tls.", r.path("bridge.rabbitmq.tls.truststore"),
                r.secret("bridge.rabbitmq.tls.truststore-password"), r.path("bridge.rabbitmq.tls.keystore"),
                r.secret("bridge.rabbitmq.tls.keystore-password"));
        ConnectionSecurityCheck.requireTlsForRabbitMqStores(enabled, stores);
        return enabled ? stores : null;
    }

    private static DeadLetterLimits deadLetterLimits(Reader r) {
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

    private static DurabilitySettings.LocalFsync localFsync(Reader r) {
        String value = r.optional("bridge.redis.wait-aof-local");
        try {
            return DurabilitySettings.LocalFsync.parse(value.isEmpty() ? "auto" : value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.redis.wait-aof-local " + e.getMessage());
        }
    }

    private static RedisExpectations redisExpectations(Reader r, long redisTimeoutMs) {
        DurabilitySettings durability;
        try {
            durability = new DurabilitySettings(
                    r.optional("bridge.redis.wait-replicas").isEmpty() ? 0 : r.intValue("bridge.redis.wait-replicas"),
                    localFsync(r),
                    r.optional("bridge.redis.wait-timeout-ms").isEmpty() ? 1_000 : r.longValue("bridge.redis.wait-timeout-ms"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith("setting ") ? e.getMessage()
                    : "setting bridge.redis.wait-*: " + e.getMessage());
        }
        if (durability.waitTimeoutMs() >= redisTimeoutMs) {
            // the wait must answer before Lettuce gives up on the command, or a slow replica reads as a dead Redis
            throw new IllegalArgumentException("setting bridge.redis.wait-timeout-ms (" + durability.waitTimeoutMs()
                    + ") must be below bridge.redis.command-timeout-ms (" + redisTimeoutMs + ")");
        }
        boolean allowEviction = !r.optional("bridge.redis.allow-eviction").isEmpty() && r.booleanValue("bridge.redis.allow-eviction");
        long checkIntervalMs = r.optional("bridge.redis.check-interval-ms").isEmpty() ? 300_000 : r.longValue("bridge.redis.check-interval-ms");
        if (checkIntervalMs < 1_000) {
            throw new IllegalArgumentException("setting bridge.redis.check-interval-ms must be at least 1000, got " + checkIntervalMs);
        }
        return new RedisExpectations(durability, allowEviction, checkIntervalMs);
    }

    private static RabbitMqSettings rabbitMqSettings(Reader r) {
        RabbitMqSettings rabbitMq = new RabbitMqSettings(
                r.booleanValue("bridge.rabbitmq.enabled"),
                r.text("bridge.rabbitmq.host"),
                r.intValue("bridge.rabbitmq.port"),
                r.text("bridge.rabbitmq.username"),
                r.requiredSecret("bridge.rabbitmq.password"),
                r.text("bridge.rabbitmq.virtual-host"),
                rabbitMqTls(r),
                r.optional("bridge.rabbitmq.tls.verify-hostname").isEmpty() || r.booleanValue("bridge.rabbitmq.tls.verify-hostname"),
                r.list("bridge.rabbitmq.inbound-queues"),
                r.map("bridge.rabbitmq.inbound-exchanges"),
                r.map("bridge.rabbitmq.default-targets"),
                r.intValue("bridge.rabbitmq.prefetch"),
                r.intValue("bridge.rabbitmq.consumers-per-queue"),
                r.intValue("bridge.rabbitmq.inbound-batch-size"),
                r.longValue("bridge.rabbitmq.inbound-linger-ms"),
                r.intValue("bridge.rabbitmq.store-attempts"),
                r.text("bridge.rabbitmq.dead-letter-channel"));
        try {
            io.github.redisdelaybridge.message.Target.parse(rabbitMq.deadLetterChannel());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.dead-letter-channel: " + e.getMessage());
        }
        return rabbitMq;
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

    private record Reader(Function<String, String> lookup) {

        String text(String key) {
            String value = lookup.apply(key);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("setting " + key + " is missing");
            }
            return value.strip();
        }

        String optional(String key) {
            String value = lookup.apply(key);
            return value == null ? "" : value.strip();
        }

        /**
         * A password or token: the content of the file named by {@code <key>-file} (environment variable
         * {@code <KEY>_FILE}, the usual convention for mounted secrets) when that is set, else the key's own value.
         */
        String secret(String key) {
            String inline = optional(key); // read either way: both keys are known ones
            return optional(key + KafkaClientProperties.FILE_SUFFIX).isEmpty() ? inline : fileContent(key + KafkaClientProperties.FILE_SUFFIX);
        }

        String requiredSecret(String key) {
            String value = secret(key);
            if (value.isEmpty()) {
                throw new IllegalArgumentException("setting " + key + " is missing");
            }
            return value;
        }

        /** The content of the file {@code fileKey} names, without a trailing line break; errors never show the content. */
        String fileContent(String fileKey) {
            String name = optional(fileKey);
            try {
                String content = java.nio.file.Files.readString(Path.of(name), java.nio.charset.StandardCharsets.UTF_8);
                return content.replaceAll("[\\r\\n]+$", "");
            } catch (java.io.IOException | java.nio.file.InvalidPathException e) {
                throw new IllegalArgumentException("setting " + fileKey + ": cannot read the file '" + name + "' ("
                        + e.getClass().getSimpleName() + ")");
            }
        }

        /** A file that must exist; empty: null. */
        Path path(String key) {
            String value = optional(key);
            if (value.isEmpty()) {
                return null;
            }
            Path path = Path.of(value);
            if (!java.nio.file.Files.isReadable(path)) {
                throw new IllegalArgumentException("setting " + key + ": no readable file " + value);
            }
            return path;
        }

        long longValue(String key) {
            try {
                long value = Long.parseLong(text(key));
                if (value < 0) {
                    throw new NumberFormatException("negative");
                }
                return value;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("setting " + key + " must be a non-negative whole number, got '" + lookup.apply(key) + "'");
            }
        }

        int intValue(String key) {
            long value = longValue(key);
            if (value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("setting " + key + " is too large: " + value);
            }
            return (int) value;
        }

        boolean booleanValue(String key) {
            String value = text(key);
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("setting " + key + " must be true or false, got '" + value + "'");
            }
            return Boolean.parseBoolean(value);
        }

        double doubleValue(String key) {
            try {
                return Double.parseDouble(text(key));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("setting " + key + " must be a number, got '" + lookup.apply(key) + "'");
            }
        }

        List<String> list(String key) {
            return Arrays.stream(optional(key).split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
        }

        /** {@code a=x,b=y}; the value may itself contain '=' or ':'. */
        Map<String, String> map(String key) {
            Map<String, String> map = new LinkedHashMap<>();
            for (String entry : list(key)) {
                int eq = entry.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("setting " + key + " must be name=value pairs, got '" + entry + "'");
                }
                map.put(entry.substring(0, eq).strip(), entry.substring(eq + 1).strip());
            }
            return map;
        }
    }
}
