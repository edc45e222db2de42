package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.admin.ApiResponses;
import io.github.redisdelaybridge.admin.DeadLetterCommands;
import io.github.redisdelaybridge.admin.DeadLetterQueries;
import io.github.redisdelaybridge.admin.MessageCommands;
import io.github.redisdelaybridge.admin.MessageQueries;
import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.deadletter.KafkaDeadLetterChannel;
import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.dispatch.LeaseReaper;
import io.github.redisdelaybridge.health.RedisHealthCheck;
import io.github.redisdelaybridge.inbound.DelayRequestValidator;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.inbound.MessageScheduler;
import io.github.redisdelaybridge.inbound.UpstreamAcknowledger;
import io.github.redisdelaybridge.inbound.kafka.KafkaRecordsReader;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.KafkaPublisher;
import io.github.redisdelaybridge.outbound.KafkaTargetPublisher;
import io.github.redisdelaybridge.outbound.Publishers;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.DelayStore;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.RedisConnection;
import io.github.redisdelaybridge.store.StoreLimits;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.component.micrometer.MicrometerConstants;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.spi.Registry;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the bridge's beans from {@link BridgeSettings} and binds them under the names the routes in
 * {@code routes/} use. Connections are closed when the Camel context stops, after its routes.
 */
public final class BridgeBeans implements CamelConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(BridgeBeans.class);

    @Override
    public void configure(CamelContext context) throws Exception {
        BridgeSettings settings = BridgeSettings.from(key -> context.getPropertiesComponent().resolveProperty(key).orElse(null));
        BooleanSupplier stopping = () -> context.isStopping() || context.isStopped();

        RedisConnection redis = new RedisConnection(settings.redisUri(), Duration.ofMillis(settings.redisTimeoutMs()));
        DelayStore store = new DelayStore(redis.async(), new Keys(settings.keyPrefix(), settings.slots()), new StoreLimits(settings.maxDelayMs(),
                settings.dedupeWindowMs(), settings.cancelWindowMs(), settings.deadLetterMaxCount(), settings.deadLetterMaxAgeMs()));
        KafkaPublisher kafka = new KafkaPublisher(settings.kafkaBootstrapServers(), "redis-delay-bridge-" + settings.instanceId(),
                Map.of("max.request.size", (int) settings.kafkaMaxRequestBytes()));
        DeadLetters deadLetters = new DeadLetters(new KafkaDeadLetterChannel(kafka, settings.kafkaDeadLetterTopic()), store);
        Publishers publishers = new Publishers(new KafkaTargetPublisher(kafka), null);

        Set<String> inboundChannels = new HashSet<>();
        settings.kafkaInboundTopics().forEach(topic -> inboundChannels.add("kafka:" + topic));
        TargetPolicy targetPolicy = new TargetPolicy(settings.allowedTargets(), inboundChannels, Set.of("kafka"));

        Dispatcher dispatcher = new Dispatcher(store, publishers, deadLetters, settings.retry(), settings.dispatch(),
                settings.instanceId(), stopping);

        Registry registry = context.getRegistry();
        BridgeMetrics metrics = new BridgeMetrics(meterRegistry(registry));
        DueTimeParser dueTimeParser = new DueTimeParser(settings.maxDelayMs());
        DelayRequestValidator validator = new DelayRequestValidator(dueTimeParser, targetPolicy, settings.defaultTargets(),
                settings.maxPayloadBytes());
        registry.bind("kafkaRecordsReader", new KafkaRecordsReader());
        registry.bind("delayRequestValidator", validator);
        registry.bind("messageScheduler", new MessageScheduler(store, deadLetters, dispatcher, metrics, stopping));
        registry.bind("upstreamAcknowledger", new UpstreamAcknowledger());
        registry.bind("dispatcher", dispatcher);
        registry.bind("leaseReaper", new LeaseReaper(store, settings.redisTimeoutMs()));
        registry.bind("delayStore", store);

        long redisTimeoutMs = settings.redisTimeoutMs();
        registry.bind("adminAuthorizer", new AdminAuthorizer(settings.adminToken()));
        registry.bind("apiResponses", new ApiResponses());
        registry.bind("messageQueries", new MessageQueries(store, dueTimeParser, metrics, redisTimeoutMs));
        registry.bind("messageCommands", new MessageCommands(store, dueTimeParser, dispatcher, metrics, redisTimeoutMs));
        registry.bind("deadLetterQueries", new DeadLetterQueries(store, redisTimeoutMs));
        registry.bind("deadLetterCommands", new DeadLetterCommands(store, validator, dueTimeParser, dispatcher, redisTimeoutMs));

        HealthCheckRegistry.get(context).register(new RedisHealthCheck(redis, Math.min(2_000, settings.redisTimeoutMs())));

        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() {
                dispatcher.close();
                kafka.close();
                redis.close();
            }
        }, true, true);
        LOG.info("bridge instance {}: inbound Kafka topics {} on {}, Redis {} (prefix {}, {} slot(s)), dead letters to kafka:{}",
                settings.instanceId(), settings.kafkaInboundTopics(), settings.kafkaBootstrapServers(), settings.redisUri(),
                settings.keyPrefix(), settings.slots(), settings.kafkaDeadLetterTopic());
        LOG.info("admin API on /api: {}", settings.adminToken().isEmpty()
                ? "loopback clients only (bridge.admin.token is not set)" : "bearer token required");
    }

    /**
     * The registry /observe/metrics publishes: Camel's Prometheus support takes the one bound under this
     * name, or binds one itself; whichever of us runs first creates it.
     */
    private static MeterRegistry meterRegistry(Registry registry) {
        MeterRegistry meters = registry.lookupByNameAndType(MicrometerConstants.METRICS_REGISTRY_NAME, MeterRegistry.class);
        if (meters == null) {
            meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            registry.bind(MicrometerConstants.METRICS_REGISTRY_NAME, meters);
        }
        return meters;
    }
}
