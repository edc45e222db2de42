package io.github.redisdelaybridge.tools;

import com.rabbitmq.client.ConnectionFactory;
import io.github.redisdelaybridge.config.BridgeHome;
import io.github.redisdelaybridge.config.BridgeSettings;
import io.github.redisdelaybridge.config.InvalidSettingsException;
import io.github.redisdelaybridge.config.RabbitMqSettings;
import io.github.redisdelaybridge.config.SettingsFile;
import io.github.redisdelaybridge.config.TlsStores;
import io.github.redisdelaybridge.store.connection.RedisUris;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Where and how bin/publish connects: the bridge's own settings (a settings file with the environment variables, the
 * {@code -file} / {@code _FILE} secrets and the Kafka client properties the bridge reads, through {@link SettingsFile}),
 * with the command line's options over them. So a publisher on the bridge's host reaches the brokers exactly as the
 * bridge does, SASL, TLS, credentials and host lists included, with no flag of its own.
 *
 * @param settingsFile    the file read, or null: none was found, and the built-in defaults below apply
 * @param kafkaBootstrap  {@code --bootstrap}, else {@code bridge.kafka.bootstrap-servers}
 * @param topic           {@code --topic}, else the first of {@code bridge.kafka.inbound-topics}
 * @param kafkaProperties the properties the bridge's producers get ({@code bridge.kafka.client.*}, {@code bridge.kafka.producer.*})
 * @param rabbitMq        {@code bridge.rabbitmq.*}, with {@code --rabbitmq}'s address (and what its URI names) over them
 * @param queue           {@code --queue}, else the first of {@code bridge.rabbitmq.inbound-queues}
 */
record BrokerSettings(Path settingsFile, String kafkaBootstrap, String topic, Map<String, Object> kafkaProperties,
                      RabbitMqSettings rabbitMq, String queue) {

    private static final String DEFAULT_CHANNEL = "delay.inbound";

    /** Without a settings file: the defaults of the distribution's config/application.properties, no security. */
    private static final RabbitMqSettings DEFAULT_RABBITMQ = new RabbitMqSettings(false, "127.0.0.1", 5672, "guest", "guest", "/",
            null, true, List.of(DEFAULT_CHANNEL), Map.of(), Map.of(), Map.of(), 1, 1, 1, 0, 1, "rabbitmq:/delay.dlq");

    /**
     * @param environment the process's environment: the settings' overrides and secrets, and {@code BRIDGE_HOME}
     * @throws InvalidSettingsException the settings file is missing or a setting is wrong, one line each
     * @throws IllegalArgumentException {@code --rabbitmq} is neither a host list nor an AMQP URI
     */
    static BrokerSettings resolve(PublishOptions options, Map<String, String> environment, Properties systemProperties) {
        Path file = settingsFile(options.config, environment, systemProperties);
        String bootstrap = "127.0.0.1:9092";
        String topic = DEFAULT_CHANNEL;
        Map<String, Object> kafkaProperties = Map.of();
        RabbitMqSettings rabbitMq = DEFAULT_RABBITMQ;
        if (file != null) {
            BridgeSettings settings;
            try {
                settings = SettingsFile.read(file, environment, systemProperties);
            } catch (InvalidSettingsException e) {
                throw new InvalidSettingsException(e.problems().stream().map(problem -> file + ": " + problem).toList());
            }
            bootstrap = settings.kafkaBootstrapServers();
            topic = settings.kafkaInboundTopics().isEmpty() ? DEFAULT_CHANNEL : settings.kafkaInboundTopics().get(0);
            kafkaProperties = new LinkedHashMap<>(settings.kafkaClients().forProducer());
            rabbitMq = settings.rabbitMq();
        }
        if (options.rabbitMq != null) {
            rabbitMq = withAddress(rabbitMq, options.rabbitMq);
        }
        String queue = rabbitMq.inboundQueues().isEmpty() ? DEFAULT_CHANNEL : rabbitMq.inboundQueues().get(0);
        return new BrokerSettings(file, options.bootstrap != null ? options.bootstrap : bootstrap, options.topic != null ? options.topic : topic,
                kafkaProperties, rabbitMq, options.queue != null ? options.queue : queue);
    }

    /** --config, else the bridge home's settings file when there is one (as the bridge finds it, BRIDGE_HOME included). */
    private static Path settingsFile(String option, Map<String, String> environment, Properties systemProperties) {
        if (option != null) {
            Path file = Path.of(option);
            if (!Files.isRegularFile(file)) {
                throw new InvalidSettingsException("--config " + option + ": no such file");
            }
            return file;
        }
        Optional<BridgeHome> home = BridgeHome.find(systemProperties::getProperty, environment::get);
        return home.map(BridgeHome::configFile).orElse(null);
    }

    /**
     * {@code --rabbitmq}: {@code HOST[:PORT][,HOST[:PORT]...]} replaces the host list only (a host without a port takes
     * {@code bridge.rabbitmq.port}); an {@code amqp://} or {@code amqps://} URI also replaces what it names (user,
     * password, virtual host) and decides TLS: {@code amqps} with the configured truststore, else the JVM's CAs.
     */
    static RabbitMqSettings withAddress(RabbitMqSettings settings, String address) {
        try {
            if (!address.contains("://")) {
                return settings.withConnection(address, settings.port(), settings.username(), settings.password(), settings.virtualHost(),
                        settings.tls());
            }
            // the client library reads the URI; what it leaves out stays as configured
            ConnectionFactory uri = new ConnectionFactory();
            uri.setUsername(settings.username());
            uri.setPassword(settings.password());
            uri.setVirtualHost(settings.virtualHost());
            uri.setUri(address);
            TlsStores tls = !uri.isSSL() ? null
                    : settings.tls() != null ? settings.tls() : new TlsStores("bridge.rabbitmq.tls.", null, "", null, "");
            return settings.withConnection(uri.getHost() + ":" + uri.getPort(), uri.getPort(), uri.getUsername(), uri.getPassword(),
                    uri.getVirtualHost(), tls);
        } catch (Exception e) {
            // the URI may hold a password: shown without its user information, and the parser's reason without the URI
            throw new IllegalArgumentException("--rabbitmq " + RedisUris.redacted(address) + " is not HOST[:PORT] or an amqp:// URI ("
                    + reasonWithout(address, e) + ")");
        }
    }

    private static String reasonWithout(String address, Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.net.URISyntaxException syntax) {
                return syntax.getReason();
            }
        }
        int start = address.indexOf("://");
        String userInfo = address.substring(start < 0 ? 0 : start + 3, Math.max(start < 0 ? 0 : start + 3, address.lastIndexOf('@')));
        boolean revealing = e.getMessage() != null && (e.getMessage().contains(address) || (!userInfo.isEmpty() && e.getMessage().contains(userInfo)));
        return e.getMessage() == null || revealing ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** For messages: where the settings came from. */
    String source() {
        return settingsFile == null ? "built-in defaults (no config/application.properties found)" : settingsFile.toString();
    }
}
