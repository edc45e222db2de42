package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.deadletter.DeadLetterReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The bridge's own metrics, next to Camel's in /observe/metrics (Prometheus names get the
 * {@code bridge_} prefix and a {@code _total} suffix for counters).
 */
public final class BridgeMetrics {

    private final MeterRegistry registry;
    private final Counter scheduled;
    private final Counter duplicates;
    private final Counter delivered;
    private final Counter publishFailures;
    private final Counter leasesReaped;
    private final Map<DeadLetterReason, Counter> deadLetters = new EnumMap<>(DeadLetterReason.class);
    private final DistributionSummary lateness;

    public BridgeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.scheduled = Counter.builder("bridge.messages.scheduled").description("messages stored in Redis").register(registry);
        this.duplicates = Counter.builder("bridge.messages.duplicate")
                .description("inbound messages not stored again: id pending, in flight or delivered within the dedupe window")
                .register(registry);
        this.delivered = Counter.builder("bridge.messages.delivered").description("messages acknowledged by their target broker")
                .register(registry);
        this.publishFailures = Counter.builder("bridge.publish.failures").description("failed publish attempts (retried or dead-lettered)")
                .register(registry);
        this.leasesReaped = Counter.builder("bridge.leases.reaped").description("claims taken back after their lease expired")
                .register(registry);
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            deadLetters.put(reason, Counter.builder("bridge.messages.dead.lettered").tag("reason", reason.code())
                    .description("messages sent to the dead-letter channel").register(registry));
        }
        this.lateness = DistributionSummary.builder("bridge.delivery.lateness").baseUnit("milliseconds")
                .description("broker acknowledgement time minus due time")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    /** A registry of its own, for tools and tests that run without Camel. */
    public static BridgeMetrics standalone() {
        return new BridgeMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    }

    public void scheduled(int count) {
        scheduled.increment(count);
    }

    public void duplicates(int count) {
        duplicates.increment(count);
    }

    public void delivered(int count) {
        delivered.increment(count);
    }

    public void publishFailed() {
        publishFailures.increment();
    }

    public void leasesReaped(long count) {
        leasesReaped.increment(count);
    }

    public void deadLettered(DeadLetterReason reason) {
        deadLetters.get(reason).increment();
    }

    public void lateness(long millis) {
        lateness.record(Math.max(0, millis));
    }

    /** Reports a live value, such as the dispatcher's in-flight count. */
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    public double deliveredCount() {
        return delivered.count();
    }
}
