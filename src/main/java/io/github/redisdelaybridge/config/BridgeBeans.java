package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.admin.ApiResponses;
import io.github.redisdelaybridge.admin.ConsoleAssets;
import io.github.redisdelaybridge.admin.DeadLetterCommands;
import io.github.redisdelaybridge.admin.DeadLetterQueries;
import io.github.redisdelaybridge.admin.DueHistogramQuery;
import io.github.redisdelaybridge.admin.MessageCommands;
import io.github.redisdelaybridge.admin.MessageQueries;
import io.github.redisdelaybridge.admin.OpenApiDocument;
import io.github.redisdelaybridge.deadletter.DeadLetterChannel;
import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.deadletter.KafkaDeadLetterChannel;
import io.github.redisdelaybridge.deadletter.OriginRoutingDeadLetterChannel;
import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.dispatch.LeaseReaper;
import io.github.redisdelaybridge.health.DispatchLivenessCheck;
import io.github.redisdelaybridge.health.DispatchStall;
import io.github.redisdelaybridge.health.HealthGauges;
import io.github.redisdelaybridge.health.InstanceIdCheck;
import io.github.redisdelaybridge.health.InstanceIdGuard;
import io.github.redisdelaybridge.health.KafkaConsumersCheck;
import io.github.redisdelaybridge.health.RabbitMqConnectionCheck;
import io.github.redisdelaybridge.health.RedisRequirementsException;
import io.github.redisdelaybridge.health.RedisServerWatch;
import io.github.redisdelaybridge.health.RedisWriteCheck;
import io.github.redisdelaybridge.inbound.DelayRequestValidator;
import io.github.redisdelaybridge.inbound.DueTimeParser;
import io.github.redisdelaybridge.inbound.MessageScheduler;
import io.github.redisdelaybridge.inbound.UpstreamAcknowledger;
import io.github.redisdelaybridge.inbound.kafka.GroupInstanceIds;
import io.github.redisdelaybridge.inbound.kafka.KafkaConsumerAssignments;
import io.github.redisdelaybridge.inbound.kafka.KafkaRecordsReader;
import io.github.redisdelaybridge.inbound.kafka.KafkaTopicIds;
import io.github.redisdelaybridge.inbound.kafka.ObservedKafkaClientFactory;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqBatchReader;
import io.github.redisdelaybridge.inbound.rabbitmq.RabbitMqBatchRequeuer;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.ClusterGauges;
import io.github.redisdelaybridge.metrics.JvmMeters;
import io.github.redisdelaybridge.outbound.BrokerRoutingPublisher;
import io.github.redisdelaybridge.outbound.KafkaTargetPublisher;
import io.github.redisdelaybridge.outbound.RabbitMqTargetPublisher;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.outbound.client.KafkaProducerClient;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.component.kafka.KafkaComponent;
import org.apache.camel.component.micrometer.MicrometerConstants;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.spi.Registry;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * Wires the bridge's beans from {@link BridgeSettings} and binds them under the names the routes in
 * {@code routes/} use. Connections are closed when the Camel context stops, after its routes.
 */
public final class BridgeBeans implements CamelConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(BridgeBeans.class);

    /** The Prometheus registry Camel serves at /observe/metrics; created here if Camel has not yet. */
    private static MeterRegistry meterRegistry(CamelContext context) {
        MeterRegistry found = context.getRegistry().lookupByNameAndType(MicrometerConstants.METRICS_REGISTRY_NAME, MeterRegistry.class);
        if (found == null) {
            found = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            context.getRegistry().bind(MicrometerConstants.METRICS_REGISTRY_NAME, found);
        }
        return found;
    }

    /** The registry name of what stops the bridge with a non-zero exit when Redis turns out unfit after the start. */
    public static final String FATAL_STOP = "bridgeFatalStop";

    /**
     * The bridge's way to stop for good: BridgeMain binds one that ends the process with a non-zero exit; without it
     * (the bridge inside a test) the Camel context is stopped.
     */
    @SuppressWarnings("unchecked")
    private static Consumer<String> fatalStop(CamelContext context) {
        Consumer<String> bound = context.getRegistry().lookupByNameAndType(FATAL_STOP, Consumer.class);
        if (bound != null) {
            return bound;
        }
        return reason -> new Thread(() -> {
            LOG.error("stopping the bridge: {}", reason);
            try {
                context.stop();
            } catch (RuntimeException e) {
                LOG.warn("could not stop the bridge cleanly", e);
            }
        }, "bridge-fatal-stop").start();
    }

    @Override
    public void configure(CamelContext context) throws Exception {
        BridgeSettings settings = SettingsCheck.read(context);
        settings.logFormat().apply();
        RabbitMqSettings rabbitMqSettings = settings.rabbitMq();
        BooleanSupplier stopping = () -> context.isStopping() || context.isStopped();

        MeterRegistry meterRegistry = meterRegistry(context);
        // the producer's per-topic meters carry a label per target topic: as many series as topics messages name
        meterRegistry.config().meterFilter(MeterFilter.denyNameStartsWith("kafka.producer.topic"));
        BridgeMetrics metrics = new BridgeMetrics(meterRegistry);
        JvmMeters jvmMeters = new JvmMeters().bindTo(meterRegistry);
        RedisExpectations expectations = settings.redisExpectations();
        RedisConnection redis = new RedisConnection(RedisConnection.uris(settings.redisUri()), settings.redisCluster(),
                Duration.ofMillis(settings.redisTimeoutMs()), settings.redisSecurity());
        // WAIT and WAITAOF hold up every later command of their connection on the server until they return, so when the
        // barrier may send them, ingest writes (and admin writes) get a connection of their own and never delay dispatching.
        RedisConnection ingestRedis = expectations.durability().equals(DurabilitySettings.memoryOnly()) ? redis
                : new RedisConnection(RedisConnection.uris(settings.redisUri()), settings.redisCluster(), Duration.ofMillis(settings.redisTimeoutMs()),
                        settings.redisSecurity());
        Keys keys = new Keys(settings.keyPrefix(), settings.slots());
        StoreLimits limits = new StoreLimits(settings.maxDelayMs(), settings.dedupeWindowMs(), settings.cancelWindowMs(),
                settings.deadLetterMaxCount(), settings.deadLetterMaxAgeMs(), settings.deadLetterLimits().keepMaxBytes(), settings.names());
        ScriptRunner scripts = new ScriptRunner(redis.async(), metrics);
        DispatchStore dispatchStore = new DispatchStore(scripts, keys, limits);
        InspectionStore inspectionStore = new InspectionStore(scripts, keys, limits);
        IngestStore ingestStore = new IngestStore(ingestRedis == redis ? scripts : new ScriptRunner(ingestRedis.async(), metrics), keys, limits, metrics);
        DurabilityBarrier barrier = new DurabilityBarrier(ingestRedis, keys, expectations.durability());
        RedisServerWatch redisWatch = new RedisServerWatch(redis, barrier, expectations.allowEviction(), expectations.checkIntervalMs(),
                settings.redisTimeoutMs(), fatalStop(context));
        try {
            redisWatch.start();
        } catch (RedisRequirementsException unfit) {
            redisWatch.close();
            if (ingestRedis != redis) {
                ingestRedis.close();
            }
            redis.close();
            throw new InvalidSettingsException(List.of(unfit.getMessage()));
        }
        Map<String, Object> producerProperties = new LinkedHashMap<>();
        producerProperties.put("max.request.size", (int) settings.kafkaMaxRequestBytes());
        producerProperties.putAll(settings.kafkaClients().forProducer());
        String kafkaClientId = "redis-delay-bridge-" + settings.instanceId();
        KafkaProducerClient kafka = new KafkaProducerClient(settings.kafkaBootstrapServers(), kafkaClientId,
                producerProperties, settings.kafkaClients().forProducerAdmin(), settings.kafkaAllowTopicAutoCreation());
        // dead letters have a producer of their own that never batches them (see KafkaDeadLetterChannel.producerProperties),
        // with the same properties otherwise, so both go over connections secured alike
        KafkaProducerClient deadLetterKafka = new KafkaProducerClient(settings.kafkaBootstrapServers(),
                kafkaClientId + KafkaDeadLetterChannel.CLIENT_ID_SUFFIX, KafkaDeadLetterChannel.producerProperties(producerProperties),
                settings.kafkaClients().forProducerAdmin(), settings.kafkaAllowTopicAutoCreation());
        AutoCloseable kafkaProducerMeters = kafka.metrics();
        ((io.micrometer.core.instrument.binder.MeterBinder) kafkaProducerMeters).bindTo(meterRegistry);
        AutoCloseable deadLetterProducerMeters = deadLetterKafka.metrics();
        ((io.micrometer.core.instrument.binder.MeterBinder) deadLetterProducerMeters).bindTo(meterRegistry);
        KafkaComponent kafkaComponent = context.getComponent("kafka", KafkaComponent.class);
        // the inbound endpoints copy the component's configuration; its additional properties are applied last, over
        // the endpoint's own options
        Map<String, Object> consumerProperties = new LinkedHashMap<>();
        if (kafkaComponent.getConfiguration().getAdditionalProperties() != null) {
            consumerProperties.putAll(kafkaComponent.getConfiguration().getAdditionalProperties());
        }
        KafkaMembership membership = settings.kafkaMembership();
        consumerProperties.put("session.timeout.ms", (int) membership.sessionTimeoutMs());
        consumerProperties.putAll(settings.kafkaClients().forConsumer());
        kafkaComponent.getConfiguration().setAdditionalProperties(consumerProperties);
        DeadLetterLimits deadLetterLimits = settings.deadLetterLimits();
        DeadLetterChannel kafkaDeadLetters = new KafkaDeadLetterChannel(deadLetterKafka, settings.kafkaDeadLetterTopic(),
                RabbitMqWiring.kafkaDeadLetterLimit(deadLetterLimits));
        RabbitMqConfirmingClient rabbitMq = rabbitMqSettings.enabled()
                ? new RabbitMqConfirmingClient(RabbitMqWiring.clientConnections(rabbitMqSettings, meterRegistry),
                        RabbitMqConnections.addresses(rabbitMqSettings),
                        "redis-delay-bridge-publisher-" + settings.instanceId())
                : null;
        DeadLetterChannel deadLetterChannel = rabbitMq == null ? kafkaDeadLetters
                : new OriginRoutingDeadLetterChannel(kafkaDeadLetters, RabbitMqWiring.originDeadLetters(rabbitMqSettings, deadLetterKafka, rabbitMq,
                deadLetterLimits));
        BrokerRoutingPublisher targetPublisher = new BrokerRoutingPublisher(new KafkaTargetPublisher(kafka),
                rabbitMq == null ? null : new RabbitMqTargetPublisher(rabbitMq));
        DeadLetters deadLetters = new DeadLetters(deadLetterChannel, ingestStore, dispatchStore, deadLetterLimits.recordMaxBytes(), metrics);

        Set<String> inboundChannels = new HashSet<>();
        Set<String> enabledBrokers = new HashSet<>(Set.of("kafka"));
        settings.kafkaInboundTopics().forEach(topic -> inboundChannels.add("kafka:" + topic));
        if (rabbitMqSettings.enabled()) {
            enabledBrokers.add("rabbitmq");
            rabbitMqSettings.inboundQueues().forEach(queue -> inboundChannels.add("rabbitmq:/" + queue));
            rabbitMqSettings.inboundExchanges().values().forEach(exchange -> inboundChannels.add("rabbitmq:" + exchange + "/*"));
        }
        TargetPolicy targetPolicy = new TargetPolicy(settings.allowedTargets(), inboundChannels, enabledBrokers);
        SettingsCheck.checkTargets(settings, targetPolicy);
        DueTimeParser dueTimeParser = new DueTimeParser(settings.maxDelayMs());

        Dispatcher dispatcher = new Dispatcher(dispatchStore, targetPublisher, deadLetters, settings.retry(), settings.dispatch(),
                stopping, metrics);

        Registry registry = context.getRegistry();
        KafkaTopicIds kafkaTopicIds = new KafkaTopicIds(settings.kafkaClients().forConsumerAdmin(settings.kafkaBootstrapServers(),
                kafkaClientId + "-topic-ids"));
        registry.bind("kafkaRecordsReader", new KafkaRecordsReader(kafkaTopicIds, stopping));
        DelayRequestValidator validator = new DelayRequestValidator(dueTimeParser, targetPolicy, settings.defaultTargets(),
                settings.maxPayloadBytes());
        registry.bind("delayRequestValidator", validator);
        registry.bind("messageScheduler", new MessageScheduler(ingestStore, inspectionStore, barrier, deadLetters, dispatcher, stopping, metrics, 0, "kafka"));
        registry.bind("upstreamAcknowledger", new UpstreamAcknowledger());
        registry.bind("dispatcher", dispatcher);
        registry.bind("leaseReaper", new LeaseReaper(dispatchStore, settings.redisTimeoutMs(), metrics));
        registry.bind("bridgeMetrics", metrics);
        registry.bind("redisServerWatch", redisWatch);

        long redisTimeoutMs = settings.redisTimeoutMs();
        String serverHost = context.getPropertiesComponent().resolveProperty("camel.server.host").orElse("0.0.0.0");
        AdminAuthorizer adminAuthorizer = new AdminAuthorizer(settings.adminToken(), settings.adminReadToken(), serverHost,
                settings.adminAllowedHosts());
        registry.bind("adminAuthorizer", adminAuthorizer);
        registry.bind("apiResponses", new ApiResponses());
        registry.bind("messageQueries", new MessageQueries(inspectionStore, dueTimeParser, metrics, redisTimeoutMs));
        registry.bind("messageCommands", new MessageCommands(ingestStore, barrier, dueTimeParser, dispatcher, metrics, redisTimeoutMs));
        registry.bind("deadLetterQueries", new DeadLetterQueries(inspectionStore, redisTimeoutMs));
        registry.bind("deadLetterCommands", new DeadLetterCommands(inspectionStore, validator, dueTimeParser, dispatcher, redisTimeoutMs));
        registry.bind("dueHistogramQuery", new DueHistogramQuery(inspectionStore, redisTimeoutMs));
        registry.bind("openApiDocument", new OpenApiDocument());
        registry.bind("consoleAssets", new ConsoleAssets());

        ObserveSettings observe = settings.observe();
        ClusterGauges clusterGauges = new ClusterGauges(inspectionStore, observe.overdueThresholdMs(), observe.gaugeCacheMs(),
                Math.min(2_000, settings.redisTimeoutMs())).register(meterRegistry);
        DispatchStall dispatchStall = new DispatchStall(dispatcher, clusterGauges, observe.dispatchStallMs());
        HealthGauges.register(metrics, context, dispatchStall);
        KafkaConsumerAssignments kafkaAssignments = new KafkaConsumerAssignments(kafkaTopicIds);
        GroupInstanceIds groupInstanceIds = membership.staticMembers() ? new GroupInstanceIds(settings.instanceId()) : null;
        kafkaComponent.setKafkaClientFactory(new ObservedKafkaClientFactory(meterRegistry, kafkaAssignments, groupInstanceIds, stopping));
        HealthCheckRegistry health = HealthCheckRegistry.get(context);
        health.register(new RedisWriteCheck(redis, keys.healthProbe(settings.instanceId()), Math.min(2_000, settings.redisTimeoutMs())));
        InstanceIdGuard instanceIdGuard = new InstanceIdGuard(redis, keys.instanceIdHolder(settings.instanceId()), settings.instanceId(),
                InstanceIdGuard.DEFAULT_INTERVAL_MS, Math.min(2_000, settings.redisTimeoutMs())).start();
        health.register(new InstanceIdCheck(instanceIdGuard, settings.instanceId()));
        health.register(new DispatchLivenessCheck(dispatchStall));
        health.register(new KafkaConsumersCheck(kafkaAssignments,
                Integer.parseInt(context.resolvePropertyPlaceholders("{{bridge.kafka.inbound-consumers}}").strip())));

        registry.bind("rabbitMqBatchReader", new RabbitMqBatchReader());
        registry.bind("rabbitMqRequestValidator", new DelayRequestValidator(dueTimeParser, targetPolicy,
                rabbitMqSettings.defaultTargets(), settings.maxPayloadBytes()));
        registry.bind("rabbitMqMessageScheduler", new MessageScheduler(ingestStore, inspectionStore, barrier, deadLetters, dispatcher, stopping, metrics,
                rabbitMqSettings.storeAttempts(), "rabbitmq"));
        registry.bind("rabbitMqBatchRequeuer", new RabbitMqBatchRequeuer());
        CachingConnectionFactory rabbitMqConsumerConnections = RabbitMqWiring.consumerConnections(rabbitMqSettings, settings.instanceId(),
                meterRegistry);
        if (rabbitMqSettings.enabled()) {
            RabbitMqConnectionCheck rabbitMqHealth = new RabbitMqConnectionCheck();
            rabbitMqConsumerConnections.addConnectionListener(rabbitMqHealth);
            health.register(rabbitMqHealth);
            RabbitMqWiring.startInboundConsumer(context, rabbitMqConsumerConnections, rabbitMqSettings);
        }

        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() throws Exception {
                dispatcher.close();
                kafkaProducerMeters.close();
                kafkaTopicIds.close();
                deadLetterProducerMeters.close();
                jvmMeters.close();
                kafka.close();
                deadLetterKafka.close();
                if (rabbitMq != null) {
                    rabbitMq.close();
                }
                rabbitMqConsumerConnections.destroy();
                redisWatch.close();
                instanceIdGuard.close();
                if (ingestRedis != redis) {
                    ingestRedis.close();
                }
                redis.close();
            }
        }, true, true);
        LOG.info("bridge instance {}: inbound Kafka topics {} on {}, Redis {}{} (prefix {}, {} slot(s)), dead letters to kafka:{}",
                settings.instanceId(), settings.kafkaInboundTopics(), settings.kafkaBootstrapServers(), redis.description(),
                settings.redisCluster() ? " (cluster)" : "", settings.keyPrefix(), settings.slots(), settings.kafkaDeadLetterTopic());
        String groupId = context.resolvePropertyPlaceholders("{{bridge.kafka.group-id}}").strip();
        if (groupInstanceIds != null) {
            LOG.info("Kafka group {}: static members {}; restarted with this instance id, the bridge takes its partitions back at once;"
                    + " stopped, it leaves the group; gone without stopping, its partitions go to the others after {} ms (session timeout)",
                    groupId, groupInstanceIds, membership.sessionTimeoutMs());
        } else {
            LOG.info("Kafka group {}: dynamic members (bridge.instance-id is not set); after a crash, this instance's partitions wait"
                    + " {} ms (session timeout) for the group to drop its old members, even when it restarts at once",
                    groupId, membership.sessionTimeoutMs());
        }
        if (rabbitMqSettings.enabled()) {
            LOG.info("{}: inbound queues {} (exchanges {}), dead letters of RabbitMQ-origin messages to {}",
                    rabbitMqSettings, rabbitMqSettings.inboundQueues(), rabbitMqSettings.inboundExchanges(), rabbitMqSettings.deadLetterChannel());
        } else {
            LOG.info("RabbitMQ disabled (bridge.rabbitmq.enabled=false): Kafka only");
        }
        if (!settings.kafkaClients().equals(KafkaClientProperties.none())) {
            LOG.info("{} (values not shown)", settings.kafkaClients());
        }
        LOG.info("admin API on /api: {}", adminAuthorizer.describe());
    }
}
