package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.admin.AdminAuthorizer;
import io.github.redisdelaybridge.health.InstanceIdGuard;
import io.github.redisdelaybridge.metrics.ClusterGauges;
import io.github.redisdelaybridge.outbound.client.RabbitMqConfirmingClient;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.apache.camel.CamelConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.spi.Registry;
import org.apache.camel.support.service.ServiceSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The composition root: reads the settings, wires each area in the order they depend on each other (metrics, store,
 * Kafka and RabbitMQ publishers, dispatch, Kafka consumers, inbound, admin, health, RabbitMQ consumer) and binds their beans
 * under the names the routes in {@code routes/} use. Connections are closed when the Camel context stops, after its routes
 * ({@link #stopInOrder}).
 */
public final class BridgeBeans implements CamelConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(BridgeBeans.class);

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
        BooleanSupplier stopping = () -> context.isStopping() || context.isStopped();
        Registry registry = context.getRegistry();

        MetricsWiring metrics = MetricsWiring.wire(context);
        StoreWiring stores = StoreWiring.wire(settings, metrics.metrics(), fatalStop(context));
        metrics.replicaGauges(stores.barrier().replicas());
        KafkaWiring kafka = KafkaWiring.wire(context, settings, metrics.registry());
        RabbitMqConfirmingClient rabbitMq = RabbitMqWiring.publisher(settings.rabbitMq(), settings.instanceId(), metrics.registry());
        DispatchWiring dispatch = DispatchWiring.wire(settings, stores, kafka, rabbitMq, metrics.metrics(), stopping);
        metrics.dispatchGauges(dispatch.dispatcher());

        KafkaWiring.Consumers kafkaConsumers = kafka.consumers(context, settings, metrics.registry(), stopping);
        InboundWiring inbound = InboundWiring.wire(registry, settings, stores, dispatch, metrics.metrics(), stopping);
        dispatch.bind(registry, stores, settings, metrics.metrics());
        stores.bind(registry);
        registry.bind("bridgeMetrics", metrics.metrics());
        AdminAuthorizer adminAuthorizer = AdminWiring.wire(context, settings, stores, inbound, dispatch.dispatcher(), dispatch.parkedTargets(),
                metrics.metrics());

        ClusterGauges clusterGauges = metrics.clusterGauges(stores.inspectionStore(), settings);
        InstanceIdGuard instanceIdGuard = HealthWiring.wire(context, settings, stores, dispatch.dispatcher(), clusterGauges,
                metrics.metrics(), kafkaConsumers.assignments());
        CachingConnectionFactory rabbitMqConsumerConnections = RabbitMqWiring.inbound(context, settings.rabbitMq(), settings.instanceId(),
                metrics.registry(), HealthCheckRegistry.get(context));

        context.addService(new ServiceSupport() {
            @Override
            protected void doStop() throws Exception {
                stopInOrder(metrics, stores, kafka, kafkaConsumers, rabbitMq, rabbitMqConsumerConnections, dispatch, instanceIdGuard);
            }
        }, true, true);
        StartupLines.log(context, settings, stores.redis(), kafka.membership(), kafkaConsumers.groupInstanceIds(), adminAuthorizer);
    }

    /**
     * The stop, after the routes: the dispatcher first, since it waits for the messages in flight to settle, which needs the
     * publishers and Redis; then the meters and the Kafka producers, RabbitMQ's publisher and consumer connections, the
     * Redis watch and the instance-id guard; the Redis connections last, since every part above may still write to Redis
     * while it stops.
     *
     * @param rabbitMq the RabbitMQ publisher; null while RabbitMQ is disabled
     */
    private static void stopInOrder(MetricsWiring metrics, StoreWiring stores, KafkaWiring kafka, KafkaWiring.Consumers kafkaConsumers,
                                    RabbitMqConfirmingClient rabbitMq, CachingConnectionFactory rabbitMqConsumerConnections,
                                    DispatchWiring dispatch, InstanceIdGuard instanceIdGuard) throws Exception {
        dispatch.dispatcher().close();
        kafka.producerMeters().close();
        kafkaConsumers.topicIds().close();
        kafka.deadLetterProducerMeters().close();
        metrics.jvmMeters().close();
        kafka.producer().close();
        kafka.deadLetterProducer().close();
        if (rabbitMq != null) {
            rabbitMq.close();
        }
        rabbitMqConsumerConnections.destroy();
        stores.redisWatch().close();
        instanceIdGuard.close();
        stores.closeConnections();
    }
}
