package io.github.redisdelaybridge.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * Kafka client properties passed through as they are, so that any broker's security (TLS, SASL, OAuth) can be
 * configured without a setting of the bridge's own for each:
 * <ul>
 *   <li>{@code bridge.kafka.client.<property>}: every Kafka client of the bridge (inbound consumers, the producers of
 *       targets and of dead letters, the admin clients that look topics up);</li>
 *   <li>{@code bridge.kafka.consumer.<property>}: the inbound consumers, over the client family;</li>
 *   <li>{@code bridge.kafka.producer.<property>}: the producers (targets, dead letters), over the client family; the
 *       dead letters' never batches, whatever {@code batch.size} says ({@code KafkaDeadLetterChannel.producerProperties}).</li>
 * </ul>
 * A key ending in {@code -file} names a file whose content is the value ({@code bridge.kafka.client.sasl.jaas.config-file}),
 * for secrets. As environment variables: {@code BRIDGE_KAFKA_CLIENT_SECURITY_PROTOCOL}, ... ({@code _} for {@code .};
 * Kafka property names have no {@code _}), {@code ..._FILE} for {@code -file}. A property Kafka does not know for
 * that kind of client is refused at start, with the closest known one: a typo would otherwise only be a warning
 * from the Kafka client, and the connection would go unsecured. So is a value that would void a delivery promise
 * ({@link KafkaDeliveryRules}), and a TLS property for a client whose protocol is not TLS ({@link ConnectionSecurityCheck}).
 */
public record KafkaClientProperties(Map<String, String> client, Map<String, String> consumer, Map<String, String> producer) {

    public static final String CLIENT = "bridge.kafka.client.";
    public static final String CONSUMER = "bridge.kafka.consumer.";
    public static final String PRODUCER = "bridge.kafka.producer.";
    static final String FILE_SUFFIX = "-file";

    /**
     * Consumer properties the bridge sets from settings of its own, refused as pass-through: a {@code group.instance.id}
     * shared by every consumer would have them fence each other, and the session timeout is the documented takeover bound.
     */
    private static final Map<String, String> OWNED_BY_THE_BRIDGE = Map.of(
            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, "bridge.instance-id (each consumer joins as <instance-id>-<n>)",
            ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, KafkaMembership.SESSION_TIMEOUT_KEY);

    public static KafkaClientProperties none() {
        return new KafkaClientProperties(Map.of(), Map.of(), Map.of());
    }

    /** Whether {@code key} belongs to one of the pass-through families. */
    public static boolean isPassThrough(String key) {
        return (key.startsWith(CLIENT) && key.length() > CLIENT.length()) || (key.startsWith(CONSUMER) && key.length() > CONSUMER.length())
                || (key.startsWith(PRODUCER) && key.length() > PRODUCER.length());
    }

    /**
     * The pass-through keys set: those of {@code propertyKeys}, and those that {@code environmentNames} spell
     * ({@code BRIDGE_KAFKA_PRODUCER_SSL_TRUSTSTORE_LOCATION} -> {@code bridge.kafka.producer.ssl.truststore.location}).
     */
    public static Set<String> keysSet(Collection<String> propertyKeys, Collection<String> environmentNames) {
        Set<String> keys = new TreeSet<>();
        propertyKeys.stream().filter(KafkaClientProperties::isPassThrough).forEach(keys::add);
        for (String name : environmentNames) {
            for (String family : List.of(CLIENT, CONSUMER, PRODUCER)) {
                String prefix = SettingsCheck.environmentVariable(family);
                if (name.startsWith(prefix) && name.length() > prefix.length()) {
                    String rest = name.substring(prefix.length()).toLowerCase(Locale.ROOT);
                    boolean file = rest.endsWith("_file");
                    if (file) {
                        rest = rest.substring(0, rest.length() - "_file".length());
                    }
                    keys.add(family + rest.replace('_', '.') + (file ? FILE_SUFFIX : ""));
                }
            }
        }
        return keys;
    }

    /**
     * Reads the values of {@code keys} through {@code readValue} (a {@code -file} key through {@code readFile}, which
     * gets the key and returns the file's content); throws with every unknown property at once.
     */
    static KafkaClientProperties read(Set<String> keys, Function<String, String> readValue, Function<String, String> readFile) {
        Map<String, String> client = new LinkedHashMap<>();
        Map<String, String> consumer = new LinkedHashMap<>();
        Map<String, String> producer = new LinkedHashMap<>();
        Map<String, String> keysByProperty = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String key : new TreeSet<>(keys)) {
            String family = key.startsWith(CLIENT) ? CLIENT : key.startsWith(CONSUMER) ? CONSUMER : PRODUCER;
            boolean file = key.endsWith(FILE_SUFFIX);
            String property = key.substring(family.length(), key.length() - (file ? FILE_SUFFIX.length() : 0));
            Set<String> known = knownProperties(family);
            if (!known.contains(property)) {
                problems.add("unknown setting " + key + ": " + property + " is not a Kafka " + familyName(family)
                        + " property; did you mean " + family + KeySuggestions.closest(property, known) + (file ? FILE_SUFFIX : "") + "?");
                continue;
            }
            if (!family.equals(PRODUCER) && OWNED_BY_THE_BRIDGE.containsKey(property)) {
                problems.add("setting " + key + ": the bridge sets " + property + " itself; set " + OWNED_BY_THE_BRIDGE.get(property) + " instead");
                continue;
            }
            String value = file ? readFile.apply(key) : readValue.apply(key);
            if (value == null) {
                continue;
            }
            Map<String, String> target = family.equals(CLIENT) ? client : family.equals(CONSUMER) ? consumer : producer;
            // keys go in order, "x" before "x-file": set both, the file wins, as for the bridge's own secrets
            target.put(property, value.strip());
            keysByProperty.put(family + property, key);
        }
        KafkaClientProperties properties = new KafkaClientProperties(Map.copyOf(client), Map.copyOf(consumer), Map.copyOf(producer));
        problems.addAll(KafkaDeliveryRules.problems(properties, keysByProperty));
        problems.addAll(ConnectionSecurityCheck.kafkaProblems(properties, keysByProperty));
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return properties;
    }

    private static String familyName(String family) {
        return family.equals(CLIENT) ? "client" : family.equals(CONSUMER) ? "consumer" : "producer";
    }

    private static Set<String> knownProperties(String family) {
        if (family.equals(CONSUMER)) {
            return ConsumerConfig.configNames();
        }
        if (family.equals(PRODUCER)) {
            return ProducerConfig.configNames();
        }
        Set<String> any = new TreeSet<>(ConsumerConfig.configNames());
        any.addAll(ProducerConfig.configNames());
        any.addAll(AdminClientConfig.configNames());
        return any;
    }

    /** For the inbound consumers: the client family where the consumer knows it, the consumer family over it. */
    public Map<String, Object> forConsumer() {
        return merged(ConsumerConfig.configNames(), consumer);
    }

    /** For the producer of targets, and (without batching) that of dead letters. */
    public Map<String, Object> forProducer() {
        return merged(ProducerConfig.configNames(), producer);
    }

    /**
     * For the admin client next to the producer (topic lookups): it talks to the same brokers as the producer, so it
     * takes the producer's connection properties too (those an admin client knows).
     */
    public Map<String, Object> forProducerAdmin() {
        Map<String, Object> merged = merged(AdminClientConfig.configNames(), Map.of());
        producer.forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name)) {
                merged.put(name, value);
            }
        });
        return merged;
    }

    /**
     * For the admin client that reads the inbound topics' ids: it talks to the same brokers as the consumers, with their
     * connection properties (those an admin client knows).
     */
    public Map<String, Object> forConsumerAdmin(String bootstrapServers, String clientId) {
        Map<String, Object> merged = merged(AdminClientConfig.configNames(), Map.of());
        consumer.forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name)) {
                merged.put(name, value);
            }
        });
        merged.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        merged.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        return merged;
    }

    private Map<String, Object> merged(Set<String> known, Map<String, String> family) {
        Map<String, Object> merged = new LinkedHashMap<>();
        client.forEach((name, value) -> {
            if (known.contains(name)) {
                merged.put(name, value);
            }
        });
        merged.putAll(family);
        return merged;
    }

    /** The property names only: values may be secrets. */
    @Override
    public String toString() {
        return "Kafka client properties: client " + client.keySet() + ", consumer " + consumer.keySet() + ", producer " + producer.keySet();
    }
}
