package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.ClusterGauges;
import io.github.redisdelaybridge.metrics.DispatchGauges;
import io.github.redisdelaybridge.metrics.DispatchLoopState;
import io.github.redisdelaybridge.metrics.JvmMeters;
import io.github.redisdelaybridge.metrics.ReplicaGauges;
import io.github.redisdelaybridge.store.connection.ConnectedReplicas;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.component.micrometer.MicrometerConstants;

/**
 * The metrics area: the registry Camel serves at /observe/metrics, the bridge's own meters and the JVM's, first of all
 * (every other area reports to them); then the dispatch-loop and cluster gauges once the loop and the store exist.
 * Stop: the JVM meters close after the dispatcher and the Kafka consumers' topic ids, before the Kafka producers.
 *
 * @param registry  the Prometheus registry
 * @param metrics   the bridge's per-instance meters
 * @param jvmMeters the JVM's meters, closed when the bridge stops
 */
record MetricsWiring(MeterRegistry registry, BridgeMetrics metrics, JvmMeters jvmMeters) {

    static MetricsWiring wire(CamelContext context) {
        MeterRegistry meterRegistry = meterRegistry(context);
        // the producer's per-topic meters carry a label per target topic: as many series as topics messages name
        meterRegistry.config().meterFilter(MeterFilter.denyNameStartsWith("kafka.producer.topic"));
        BridgeMetrics metrics = new BridgeMetrics(meterRegistry);
        JvmMeters jvmMeters = new JvmMeters().bindTo(meterRegistry);
        return new MetricsWiring(meterRegistry, metrics, jvmMeters);
    }

    /** The Prometheus registry Camel serves at /observe/metrics; created here if Camel has not yet. */
    private static MeterRegistry meterRegistry(CamelContext context) {
        MeterRegistry found = context.getRegistry().lookupByNameAndType(MicrometerConstants.METRICS_REGISTRY_NAME, MeterRegistry.class);
        if (found == null) {
            found = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            context.getRegistry().bind(MicrometerConstants.METRICS_REGISTRY_NAME, found);
        }
        return found;
    }

    /** This instance's dispatch-loop gauges (in flight, last cycle age). */
    void dispatchGauges(DispatchLoopState dispatchLoop) {
        DispatchGauges.register(metrics, dispatchLoop);
    }

    /** The connected and expected replicas of each Redis master, as the durability barrier reads them. */
    void replicaGauges(ConnectedReplicas replicas) {
        ReplicaGauges.follow(replicas, registry);
    }

    /** The cluster-wide gauges read from Redis; the dispatch-stall check reads them too. */
    ClusterGauges clusterGauges(InspectionStore store, BridgeSettings settings) {
        ObserveSettings observe = settings.observe();
        return new ClusterGauges(store, observe.overdueThresholdMs(), observe.gaugeCacheMs(),
                Math.min(2_000, settings.redisTimeoutMs())).register(registry);
    }
}
