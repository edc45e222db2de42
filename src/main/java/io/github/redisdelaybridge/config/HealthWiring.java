package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.dispatch.Dispatcher;
import io.github.redisdelaybridge.dispatch.LeaseTakeBack;
import io.github.redisdelaybridge.health.DispatchLivenessCheck;
import io.github.redisdelaybridge.health.DispatchStall;
import io.github.redisdelaybridge.health.HealthGauges;
import io.github.redisdelaybridge.health.InstanceIdCheck;
import io.github.redisdelaybridge.health.InstanceIdGuard;
import io.github.redisdelaybridge.health.KafkaConsumersCheck;
import io.github.redisdelaybridge.health.RedisWriteCheck;
import io.github.redisdelaybridge.inbound.kafka.KafkaConsumerAssignments;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.ClusterGauges;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckRegistry;

/**
 * The health area: the checks behind /observe/health (a Redis write, this instance's id held by this instance alone, the
 * dispatch loop alive, the Kafka consumers assigned) and the health gauges; the instance-id guard also gives back at once the
 * leases of a gone process of this id ({@link LeaseTakeBack}). Built once the dispatcher, the cluster gauges
 * and the Kafka consumers' assignments exist; the RabbitMQ connection check comes with the RabbitMQ consumer
 * ({@link RabbitMqWiring#inbound}). Stop: the instance-id guard after the Redis server watch, before the Redis connections
 * it writes on.
 */
final class HealthWiring {

    private HealthWiring() {
    }

    /** Registers the checks and the health gauges; returns the instance-id guard, started, to be closed when the bridge stops. */
    static InstanceIdGuard wire(CamelContext context, BridgeSettings settings, StoreWiring stores, Dispatcher dispatcher,
                                ClusterGauges clusterGauges, BridgeMetrics metrics, KafkaConsumerAssignments kafkaAssignments) {
        DispatchStall dispatchStall = new DispatchStall(dispatcher, clusterGauges, settings.observe().dispatchStallMs());
        HealthGauges.register(metrics, context, dispatchStall);
        HealthCheckRegistry health = HealthCheckRegistry.get(context);
        health.register(new RedisWriteCheck(stores.redis(), stores.keys().healthProbe(settings.instanceId()),
                Math.min(2_000, settings.redisTimeoutMs())));
        LeaseTakeBack leaseTakeBack = new LeaseTakeBack(stores.dispatchStore(), settings.instanceId(), dispatcher.claimerId(),
                settings.redisTimeoutMs());
        InstanceIdGuard instanceIdGuard = new InstanceIdGuard(stores.redis(), stores.keys().instanceIdHolder(settings.instanceId()),
                settings.instanceId(), InstanceIdGuard.DEFAULT_INTERVAL_MS, Math.min(2_000, settings.redisTimeoutMs()),
                leaseTakeBack::takeBack).start();
        health.register(new InstanceIdCheck(instanceIdGuard, settings.instanceId()));
        health.register(new DispatchLivenessCheck(dispatchStall));
        health.register(new KafkaConsumersCheck(kafkaAssignments,
                Integer.parseInt(context.resolvePropertyPlaceholders("{{bridge.kafka.inbound-consumers}}").strip())));
        return instanceIdGuard;
    }
}
