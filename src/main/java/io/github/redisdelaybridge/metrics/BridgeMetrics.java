package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.message.Broker;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.DueTimeChange;
import io.github.redisdelaybridge.store.ingest.Replacement;
import io.github.redisdelaybridge.store.ingest.NamesCapListener;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The bridge's own per-instance metrics, next to Camel's, the JVM's and the broker clients' in /observe/metrics
 * (Prometheus names get the {@code bridge_} prefix, {@code _total} for counters, {@code _seconds} for timers), so that
 * for example {@code bridge_cancels_total{outcome="in-flight",via="message"}} can be alerted on. Every label has a fixed,
 * small set of values (reasons, outcomes, broker kinds, script names): none grows with traffic. docs/observe.md lists
 * them all. Cancel and reschedule counts are also summed up for {@code GET /api/stats}. Counts are per instance, since it
 * started. The cluster-wide gauges read from Redis are {@link ClusterGauges}'.
 */
public final class BridgeMetrics implements ScriptTimings, NamesCapListener {

    /**
     * Histogram buckets of the lateness and the latencies: suited to SLOs from 1 ms to 60 s, the same on every instance so
     * the buckets add up across instances ({@code histogram_quantile(0.99, sum by (le) (rate(..._bucket[5m])))}).
     */
    static final Duration[] SLO_BUCKETS = {millis(1), millis(2.5), millis(5), millis(10), millis(25), millis(50), millis(100),
            millis(250), millis(500), millis(1_000), millis(2_500), millis(5_000), millis(10_000), millis(30_000), millis(60_000)};

    static final String CANCELS = "bridge.cancels";
    static final String RESCHEDULES = "bridge.reschedules";
    static final String REPLACES = "bridge.replaces";
    static final String GROUP_OPERATIONS = "bridge.group.operations";
    static final String GROUP_MESSAGES = "bridge.group.messages";
    /** The {@code operation} label of the group counters. */
    public static final String CANCEL_GROUP = "cancel-group";
    public static final String RESCHEDULE_GROUP = "reschedule-group";
    static final String CANCELLED_ARRIVALS = "bridge.cancelled.arrivals";
    static final String DEAD_LETTERS_TRIMMED = "bridge.dead.letters.trimmed";
    static final String DEAD_LETTERS_NOT_SENT = "bridge.dead.letters.not.sent";
    static final String DUPLICATE_IDS = "bridge.messages.duplicate.id";
    static final String UNINTERNED = "bridge.payloads.uninterned";
    /** Every inbound message not stored because its id is taken, by reason, in one family. */
    static final String NOT_STORED = "bridge.messages.not.stored";
    /** What a dead letter too large for its channel goes without (the values of {@link #deadLetterTrimmed}'s label). */
    static final java.util.List<String> TRIMMED_PARTS = java.util.List.of("body", "body,key,headers");

    private final MeterRegistry registry;
    private final Counter scheduled;
    private final Counter duplicatesPending;
    private final Counter publishFailures;
    private final Counter publishDeferred;
    private final Counter leasesReaped;
    private final Counter duplicatesDelivered;
    private final Map<DeadLetterReason, Counter> deadLetters = new EnumMap<>(DeadLetterReason.class);
    private final Map<Broker, Counter> deliveredByKind = new EnumMap<>(Broker.class);
    private final Map<Broker, Timer> latenessByKind = new EnumMap<>(Broker.class);
    private final Map<Broker, Timer> publishByKind = new EnumMap<>(Broker.class);
    private final Map<Broker, Timer> ingestByKind = new EnumMap<>(Broker.class);
    private final Map<String, Timer> scripts = new ConcurrentHashMap<>();
    /** Per configured target pattern only (bridge.targets.limits), so that the labels stay as few as the settings. */
    private final Map<String, Counter> targetCounters = new ConcurrentHashMap<>();
    private final Counter retriesPublishFailed;
    private final Counter retriesNotSent;
    private final Counter retriesLeaseExpired;
    private final DistributionSummary claimBatchSize;

    public BridgeMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.scheduled = Counter.builder("bridge.messages.scheduled").description("messages stored in Redis").register(registry);
        this.duplicatesPending = duplicateCounter("pending");
        this.duplicatesDelivered = duplicateCounter("delivered");
        // the kind label: where a message is published to, or came from
        for (Broker kind : Broker.values()) {
            deliveredByKind.put(kind, Counter.builder("bridge.messages.delivered").tag("kind", kind.label())
                    .description("messages acknowledged by their target broker").register(registry));
            latenessByKind.put(kind, Timer.builder("bridge.delivery.lateness").tag("kind", kind.label())
                    .description("broker acknowledgement time minus due time, per delivered message")
                    .serviceLevelObjectives(SLO_BUCKETS).register(registry));
            publishByKind.put(kind, Timer.builder("bridge.publish.duration").tag("kind", kind.label())
                    .description("one publish, from handing it to the broker client to the broker's answer (ack or failure)")
                    .serviceLevelObjectives(SLO_BUCKETS).register(registry));
            ingestByKind.put(kind, Timer.builder("bridge.ingest.duration").tag("kind", kind.label())
                    .description("one inbound batch, from reaching the bridge's scheduler to stored and confirmed in Redis")
                    .serviceLevelObjectives(SLO_BUCKETS).register(registry));
        }
        this.retriesPublishFailed = retryCounter("publish-failed");
        this.retriesNotSent = retryCounter("not-sent");
        this.retriesLeaseExpired = retryCounter("lease-expired");
        this.claimBatchSize = DistributionSummary.builder("bridge.dispatch.claim.batch.size")
                .description("messages claimed per dispatch round that claimed any")
                .serviceLevelObjectives(1, 10, 100, 500, 1_000, 5_000).register(registry);
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
        registry.counter(CANCELLED_ARRIVALS);
        registry.counter(DUPLICATE_IDS);
        Counter.builder(UNINTERNED).description("payloads stored with their target and origin in full: the slot's names hash was full")
                .register(registry);
        for (String reason : List.of("pending-duplicate", "delivered-within-dedupe-window", "cancelled-within-cancel-window")) {
            Counter.builder(NOT_STORED).tag("reason", reason).description("inbound messages not stored: a copy of a pending or in-flight"
                    + " message, or their id delivered within the dedupe window, or cancelled within the cancel window").register(registry);
        }
        for (DeadLetterReason reason : DeadLetterReason.values()) {
            for (String dropped : TRIMMED_PARTS) {
                registry.counter(DEAD_LETTERS_TRIMMED, "reason", reason.code(), "dropped", dropped);
            }
            registry.counter(DEAD_LETTERS_NOT_SENT, "reason", reason.code());
        }
        // every outcome from the start, so a scrape shows the families (and rate() sees the first one) before any happens
        for (Via via : Via.values()) {
            for (CancelOutcome outcome : CancelOutcome.values()) {
                registry.counter(CANCELS, "outcome", code(outcome), "via", via.code());
            }
            for (DueTimeChange.Outcome outcome : DueTimeChange.Outcome.values()) {
                registry.counter(RESCHEDULES, "outcome", code(outcome), "via", via.code());
            }
        }
        for (Replacement.Outcome outcome : Replacement.Outcome.values()) {
            registry.counter(REPLACES, "outcome", code(outcome), "via", Via.MESSAGE.code());
        }
        for (Via via : Via.values()) {
            for (String operation : new String[] {CANCEL_GROUP, RESCHEDULE_GROUP}) {
                registry.counter(GROUP_OPERATIONS, "operation", operation, "via", via.code());
                registry.counter(GROUP_MESSAGES, "operation", operation, "via", via.code(), "outcome", "changed");
                registry.counter(GROUP_MESSAGES, "operation", operation, "via", via.code(), "outcome", "in-flight");
            }
        }
    }

    private Counter duplicateCounter(String reason) {
        return Counter.builder("bridge.messages.duplicate").tag("reason", reason)
                .description("inbound messages not stored again: id pending or in flight (pending), or delivered within the dedupe"
                        + " window (delivered)").register(registry);
    }

    private Counter retryCounter(String reason) {
        return Counter.builder("bridge.retries").tag("reason", reason)
                .description("messages sent back to the due set to be tried again: after a failed publish (publish-failed), not"
                        + " sent at all (not-sent), or their lease expired (lease-expired)").register(registry);
    }

    private static Duration millis(double millis) {
        return Duration.ofNanos((long) (millis * 1_000_000));
    }

    /** A registry of its own, for tools and tests that run without Camel. */
    public static BridgeMetrics standalone() {
        return new BridgeMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry());
    }

    public void scheduled(int count) {
        scheduled.increment(count);
    }

    /** Not stored again: the id is pending or in flight. */
    public void duplicates(int count) {
        duplicatesPending.increment(count);
        registry.counter(NOT_STORED, "reason", "pending-duplicate").increment(count);
    }

    /** Not stored: the id was delivered within the dedupe window. */
    public void duplicatesOfDelivered(int count) {
        duplicatesDelivered.increment(count);
        registry.counter(NOT_STORED, "reason", "delivered-within-dedupe-window").increment(count);
    }

    /** Messages acknowledged by a broker of that kind. */
    public void delivered(Broker kind, int count) {
        deliveredByKind.get(kind).increment(count);
    }

    /** Broker acknowledgement minus due time of one delivered message. */
    public void lateness(Broker kind, long millis) {
        latenessByKind.get(kind).record(Math.max(0, millis), TimeUnit.MILLISECONDS);
    }

    /** One publish, handed to the broker client until answered. */
    public void publishTook(Broker kind, long nanos) {
        publishByKind.get(kind).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** One inbound batch, until stored and confirmed. */
    public void ingestTook(Broker kind, long nanos) {
        ingestByKind.get(kind).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Messages claimed by one dispatch round. */
    public void claimed(int count) {
        claimBatchSize.record(count);
    }

    /** Rescheduled with backoff after a failed publish. */
    public void retriedAfterFailure() {
        retriesPublishFailed.increment();
    }

    @Override
    public void completed(String script, long nanos) {
        scripts.computeIfAbsent(script, name -> Timer.builder("bridge.script.duration").tag("script", name)
                .description("one Lua script call, from sending it to Redis's reply").serviceLevelObjectives(SLO_BUCKETS)
                .register(registry)).record(nanos, TimeUnit.NANOSECONDS);
    }

    public void publishFailed() {
        publishFailures.increment();
    }

    public void publishDeferred() {
        publishDeferred.increment();
        retriesNotSent.increment();
    }

    public void leasesReaped(long count) {
        leasesReaped.increment(count);
        retriesLeaseExpired.increment(count);
    }

    /** Messages of a configured target pattern ({@code name}) delivered. */
    public void targetDelivered(String name, int count) {
        targetCounter("bridge.target.delivered", name, "messages of a configured target pattern delivered").increment(count);
    }

    /** Messages of a configured target pattern given back for later because its rate limit had no tokens for them. */
    public void targetRateLimited(String name, int count) {
        targetCounter("bridge.target.rate.limited", name,
                "messages of a configured target pattern over its rate limit, given back to be due as its tokens come").increment(count);
    }

    /** Messages of a configured target pattern dead-lettered as expired (later than its max-lateness-ms). */
    public void targetExpired(String name, int count) {
        targetCounter("bridge.target.expired", name, "messages of a configured target pattern dead-lettered as expired").increment(count);
    }

    private Counter targetCounter(String meter, String name, String description) {
        return targetCounters.computeIfAbsent(meter + " " + name,
                k -> Counter.builder(meter).tag("target", name).description(description).register(registry));
    }

    public void deadLettered(DeadLetterReason reason) {
        deadLetters.get(reason).increment();
    }

    /** Reports a live value, such as the dispatcher's in-flight count. */
    public void gauge(String name, String description, Supplier<Number> value) {
        Gauge.builder(name, value).description(description).register(registry);
    }

    /** A gauge of one series of a labelled family ({@code tag} = {@code tagValue}). */
    public void gauge(String name, String description, String tag, String tagValue, Supplier<Number> value) {
        Gauge.builder(name, value).tag(tag, tagValue).description(description).register(registry);
    }

    public void cancel(CancelOutcome outcome, Via via) {
        registry.counter(CANCELS, "outcome", code(outcome), "via", via.code()).increment();
    }

    public void reschedule(DueTimeChange.Outcome outcome, Via via) {
        registry.counter(RESCHEDULES, "outcome", code(outcome), "via", via.code()).increment();
    }

    public void replace(Replacement.Outcome outcome, Via via) {
        registry.counter(REPLACES, "outcome", code(outcome), "via", via.code()).increment();
    }

    /**
     * A group operation carried out ({@link #CANCEL_GROUP} or {@link #RESCHEDULE_GROUP}; a dry run is not one): the
     * messages it changed, and those it left alone because they were in flight.
     */
    public void groupOperation(String operation, Via via, long changed, long inFlight) {
        registry.counter(GROUP_OPERATIONS, "operation", operation, "via", via.code()).increment();
        registry.counter(GROUP_MESSAGES, "operation", operation, "via", via.code(), "outcome", "changed").increment(changed);
        registry.counter(GROUP_MESSAGES, "operation", operation, "via", via.code(), "outcome", "in-flight").increment(inFlight);
    }

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

    @Override
    public void storedUninterned(long payloads) {
        registry.counter(UNINTERNED).increment(payloads);
    }

    /** An inbound message reused the id of a pending or in-flight message with a different payload (dead-lettered). */
    public void duplicateIdConflict() {
        registry.counter(DUPLICATE_IDS).increment();
    }

    /** A message arrived whose id had been cancelled (the cancel overtook it): dropped. */
    public void cancelledArrival() {
        registry.counter(CANCELLED_ARRIVALS).increment();
        registry.counter(NOT_STORED, "reason", "cancelled-within-cancel-window").increment();
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
            if (counter.count() == 0) {
                continue; // registered in advance, never happened: /api/stats shows what happened
            }
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
