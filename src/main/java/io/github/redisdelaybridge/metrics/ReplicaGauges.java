package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.store.connection.ConnectedReplicas;
import io.github.redisdelaybridge.store.connection.ConnectedReplicas.MasterReplicas;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.util.List;

/**
 * Per Redis master the bridge writes to: the replicas it has connected now and the replicas expected of it
 * ({@link ConnectedReplicas}). A master that failed over away is dropped from both, so the labels are the masters of now.
 */
public final class ReplicaGauges {

    private final MultiGauge connected;
    private final MultiGauge expected;

    private ReplicaGauges(MeterRegistry registry) {
        connected = MultiGauge.builder("bridge.redis.replicas.connected")
                .description("replicas this Redis master has connected now (in state online), as the bridge last read them").register(registry);
        expected = MultiGauge.builder("bridge.redis.replicas.expected")
                .description("replicas expected of each Redis master: bridge.redis.wait-replicas, or with auto the most a master had"
                        + " connected since the bridge started (at least bridge.redis.min-replicas)").register(registry);
    }

    /** Registers the gauges and keeps them at what {@code replicas} reads. */
    public static void follow(ConnectedReplicas replicas, MeterRegistry registry) {
        ReplicaGauges gauges = new ReplicaGauges(registry);
        replicas.onChange(gauges::update);
    }

    private synchronized void update(List<MasterReplicas> masters) {
        connected.register(masters.stream().map(m -> MultiGauge.Row.of(Tags.of("master", m.master()), m.connected())).toList(), true);
        expected.register(masters.stream().map(m -> MultiGauge.Row.of(Tags.of("master", m.master()), m.expected())).toList(), true);
    }
}
