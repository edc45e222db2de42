package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.store.CancelOutcome;
import io.github.redisdelaybridge.store.DueTimeChange;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bridge's own counters, in the Micrometer registry that {@code /observe/metrics} publishes (so
 * {@code bridge_cancels_total{outcome="in-flight",via="message"}} can be alerted on), and summed up for
 * {@code GET /api/stats}. Counts are per instance, since it started.
 */
public final class BridgeMetrics {

    static final String CANCELS = "bridge.cancels";
    static final String RESCHEDULES = "bridge.reschedules";
    static final String CANCELLED_ARRIVALS = "bridge.cancelled.arrivals";

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

    public BridgeMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.counter(CANCELLED_ARRIVALS);
    }

    public void cancel(CancelOutcome outcome, Via via) {
        registry.counter(CANCELS, "outcome", code(outcome), "via", via.code()).increment();
    }

    public void reschedule(DueTimeChange.Outcome outcome, Via via) {
        registry.counter(RESCHEDULES, "outcome", code(outcome), "via", via.code()).increment();
    }

    /** A message arrived whose id had been cancelled (the cancel overtook it): dropped. */
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
