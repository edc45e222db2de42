package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.store.connection.RedisSecurity;
import io.github.redisdelaybridge.store.connection.RedisUris;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS configured half-way would leave a connection plain without a word (its password and messages in clear), so it stops
 * the start: Redis trust or key stores with a URI that is not {@code rediss://}, RabbitMQ stores while
 * {@code bridge.rabbitmq.tls.enabled} is false, Kafka {@code ssl.*} properties for a client whose
 * {@code security.protocol} is not SSL or SASL_SSL. A Redis URI that cannot be parsed stops it too, without being shown
 * (it may hold the password). Certificate checks turned off are a warning at every start.
 */
final class ConnectionSecurityCheck {

    private static final Logger LOG = LoggerFactory.getLogger(ConnectionSecurityCheck.class);

    private static final Set<String> TLS_PROTOCOLS = Set.of("SSL", "SASL_SSL");

    private ConnectionSecurityCheck() {
    }

    /** Every URI of {@code bridge.redis.uri} parses, and uses TLS when trust or key stores are configured. */
    static List<String> redisProblems(String uriSetting, RedisSecurity security) {
        String unparseable = RedisUris.whyUnparseable(uriSetting);
        if (unparseable != null) {
            return List.of(unparseable);
        }
        if (RedisUris.split(uriSetting).stream().allMatch(ConnectionSecurityCheck::isTlsUri)) {
            return List.of();
        }
        List<String> problems = new ArrayList<>();
        if (security.truststore() != null) {
            problems.add(redisStoreWithoutTls("bridge.redis.tls.truststore"));
        }
        if (security.keystore() != null) {
            problems.add(redisStoreWithoutTls("bridge.redis.tls.keystore"));
        }
        return problems;
    }

    private static boolean isTlsUri(String uri) {
        String lower = uri.toLowerCase(Locale.ROOT);
        return lower.startsWith("rediss://") || lower.startsWith("rediss-sentinel://");
    }

    private static String redisStoreWithoutTls(String key) {
        return "setting " + key + " is set but bridge.redis.uri is not rediss:// (rediss-sentinel:// through Sentinel, rediss:// for every"
                + " seed of a cluster): the connection would be plain, the password and the messages in clear";
    }

    /** Throws when a RabbitMQ store is configured while TLS is off. */
    static void requireTlsForRabbitMqStores(boolean tlsEnabled, TlsStores stores) {
        if (tlsEnabled) {
            return;
        }
        String key = stores.truststore() != null ? "truststore" : stores.keystore() != null ? "keystore" : null;
        if (key != null) {
            throw new IllegalArgumentException("setting bridge.rabbitmq.tls." + key + " is set but bridge.rabbitmq.tls.enabled is false:"
                    + " the connection would be plain AMQP, the password and the messages in clear; set bridge.rabbitmq.tls.enabled=true");
        }
    }

    /** One line per {@code ssl.*} key set for a client (consumers, producers) whose protocol is not TLS. */
    static List<String> kafkaProblems(KafkaClientProperties properties, Map<String, String> keys) {
        Map<String, Set<String>> plainClientsByKey = new TreeMap<>();
        Map<String, Set<String>> protocolsByKey = new TreeMap<>();
        for (boolean producers : new boolean[] {false, true}) {
            Map<String, String> family = producers ? properties.producer() : properties.consumer();
            String familyPrefix = producers ? KafkaClientProperties.PRODUCER : KafkaClientProperties.CONSUMER;
            Map<String, Object> effective = producers ? properties.forProducer() : properties.forConsumer();
            String protocol = String.valueOf(effective.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT"));
            if (TLS_PROTOCOLS.contains(protocol.toUpperCase(Locale.ROOT))) {
                continue;
            }
            for (String property : effective.keySet()) {
                if (property.startsWith("ssl.")) {
                    String prefix = family.containsKey(property) ? familyPrefix : KafkaClientProperties.CLIENT;
                    String key = keys.getOrDefault(prefix + property, prefix + property);
                    plainClientsByKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(producers ? "producers" : "consumers");
                    protocolsByKey.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(protocol);
                }
            }
        }
        List<String> problems = new ArrayList<>();
        plainClientsByKey.forEach((key, clients) -> problems.add("setting " + key + " is set but the security.protocol of the "
                + String.join(" and ", clients) + " is " + String.join(" and ", protocolsByKey.get(key))
                + ": their connections would be plain; set security.protocol to SSL or SASL_SSL"));
        return problems;
    }

    /** A WARN for each certificate check turned off, at every start. */
    static void warnAboutChecksTurnedOff(BridgeSettings settings) {
        if (settings.redisSecurity().verifyPeer() == RedisSecurity.VerifyPeer.NONE) {
            LOG.warn("bridge.redis.tls.verify-peer=none: the Redis server's certificate is not checked, so anyone on the network path can"
                    + " pose as Redis and read the password and every message; use full (or ca) outside tests");
        }
        if (!settings.rabbitMq().verifyHostname()) {
            LOG.warn("bridge.rabbitmq.tls.verify-hostname=false: RabbitMQ's certificate need not name the host connected to, so any"
                    + " certificate of a trusted CA is accepted; use true outside tests");
        }
        for (Map<String, Object> client : List.of(settings.kafkaClients().forConsumer(), settings.kafkaClients().forProducer())) {
            Object algorithm = client.get(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG);
            if (algorithm != null && algorithm.toString().isBlank()) {
                LOG.warn("Kafka client property ssl.endpoint.identification.algorithm is empty: the brokers' certificates need not name"
                        + " the hosts connected to; leave it unset (https) outside tests");
                return;
            }
        }
    }
}
