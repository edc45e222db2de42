package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.inbound.kafka.KafkaConsumerAssignments;
import java.util.List;
import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Readiness: DOWN until each of this instance's inbound Kafka consumers ({@code bridge.kafka.inbound-consumers}) has joined
 * its group and received an assignment, and while one has lost it (out of the group). An empty assignment counts: a group
 * may have more consumers than partitions. A broker that becomes unreachable later is Camel's own Kafka consumer check.
 */
public final class KafkaConsumersCheck extends AbstractHealthCheck {

    private final KafkaConsumerAssignments assignments;
    private final int expectedConsumers;

    public KafkaConsumersCheck(KafkaConsumerAssignments assignments, int expectedConsumers) {
        super("redis-delay-bridge", "kafka-consumers");
        this.assignments = assignments;
        this.expectedConsumers = expectedConsumers;
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        List<Long> partitions = assignments.partitionsByConsumer();
        long assigned = partitions.stream().filter(p -> p >= 0).count();
        builder.detail("consumers", partitions.size());
        builder.detail("consumers.assigned", assigned);
        builder.detail("partitions", partitions.stream().filter(p -> p > 0).mapToLong(Long::longValue).sum());
        if (partitions.size() >= expectedConsumers && assigned == partitions.size()) {
            builder.up();
        } else {
            builder.message(assigned + " of " + expectedConsumers + " inbound Kafka consumers have joined their group");
            builder.down();
        }
    }
}
