package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.store.CancelOutcome;
import io.github.redisdelaybridge.store.DueTimeChange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The bridge's own metrics, next to Camel's in /observe/metrics (Prometheus names get the
 * {@code bridge_} prefix and a {@code _total} suffix for counters), so that for example
 * {@code bridge_cancels_total{outcome="in-flight",via="message"}} can be alerted on. Cancel and
 * reschedule counts are also summed up for {@code GET /api/stats}. Counts are per instance, since it started.
 */
public final class BridgeMetrics {

    static final String CANCELS = "bridge.cancels";
    static final String RESCHEDULES = "bridge.reschedules";
    static final String CANCELLED_ARRIVALS = "bridge.cancelled.arrivals";
    static final String DEAD_LETTERS_TRIMMED = "bridge.dead.letters.trimmed";
    static final String DEAD_LETTERS_NOT_SENT = "bridge.dead.letters.not.sent";
    static final String DUPLICATE_IDS = "bridge.messages.duplicate.id";

    /** Where a cancel or reschedule came from. */
    public enum Via {
        /** A control message on an inbound topic or queue. */
        MESSAGE,
        /** The admin HTTP API. */
        HTTP;

        String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final MeterRegistry registry;
    private final Counter scheduled;
    private final Counter duplicates;
    private final Counter delivered;
    private final Counter publishFailures;
    private final Counter publishDeferred;
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
        this.publishDeferred = Counter.builder("bridge.publish.deferred")
                .description("claimed messages not sent (broker blocked, target stalled) and given back for later; no attempt counted")
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
        registry.counter(CANCELLED_ARRIVALS);
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

    public void publishDeferred() {
        publishDeferred.increment();
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

    public void cancel(CancelOutcome outcome, Via via) {
        registry.counter(CANCELS, "outcome", code(outcome), "via", via.code()).increment();
    }

    public void reschedule(DueTimeChange.Outcome outcome, Via via) {
        registry.counter(RESCHEDULES, "outcome", code(outcome), "via", via.code()).increment();
    }

    /** A message arrived whose id had been cancelled (the cancel overtook it): dropped. */
    /**
     * A dead letter went to its channel without parts of the message (the whole would not fit): {@code dropped} is
     * {@code body} or {@code body,key,headers}.
     */
    public void deadLetterTrimmed(DeadLetterReason reason, String dropped) {
        registry.counter(DEAD_LETTERS_TRIMMED, "reason", reason.code(), "dropped", dropped).increment();
    }

    /** The dead-letter channel refused a dead letter for good, even in its smallest form: it is kept only in Redis. */
    public void deadLetterNotSent(DeadLetterReason reason) {
        registry.counter(DEAD_LETTERS_NOT_SENT, "reason", reason.code()).increment();
    }

    /** An inbound message reused the id of a pending or in-flight message with a different payload (dead-lettered). */
    public void duplicateIdConflict() {
        registry.counter(DUPLICATE_IDS).increment();
    }

    public void cancelledArrival() {
        registry.counter(CANCELLED_ARRIVALS).increment();
    }

    /** {@code {"cancels": {"message": {"in-flight": 1, ...}, "http": {...}}, "reschedules": {...}, "cancelledArrivals": n}} */
    public Map<String, Object> snapshot() {
        Map<String, Object> snapshot = new TreeMap<>();
        snapshot.put("cancels", byViaAndOutcome(CANCELS));
        snapshot.put("reschedules", byViaAndOutcome(RESCHEDULES));
        snapshot.put("cancelledArrivals", (long) registry.get(CANCELLED_ARRIVALS).counter().count());
        return snapshot;
    }

    private Map<String, Map<String, Long>> byViaAndOutcome(String name) {
        Map<String, Map<String, Long>> counts = new TreeMap<>();
        for (Counter counter : registry.find(name).counters()) {
            counts.computeIfAbsent(counter.getId().getTag("via"), v -> new TreeMap<>())
                    .merge(counter.getId().getTag("outcome"), (long) counter.count(), Long::sum);
        }
        return counts;
    }

    /** IN_FLIGHT -> in-flight */
    static String code(Enum<?> outcome) {
        return outcome.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
