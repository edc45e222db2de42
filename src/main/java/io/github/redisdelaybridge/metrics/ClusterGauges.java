package io.github.redisdelaybridge.metrics;

import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.inspection.StoreGauges;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The cluster-wide gauges: what Redis holds for every instance together (pending, in flight, overdue, the oldest overdue
 * message's age, dead letters stored, due within the next minute / ten minutes / hour). Every instance reports the same
 * values; aggregate them with {@code max}, not {@code sum}.
 *
 * <p>One read ({@link InspectionStore#gauges}: one read-only script call per slot, pipelined) serves every gauge for
 * {@code cacheMs}, so a scrape, however many gauges it reads and however many scrapers ask, costs Redis at most one round
 * trip per slot per {@code cacheMs}. While Redis does not answer, the gauges read NaN (unknown) rather than a stale count.
 */
public final class ClusterGauges {

    private final InspectionStore store;
    private final long overdueThresholdMs;
    private final long cacheMs;
    private final long timeoutMs;
    private StoreGauges latest;
    private long readAtNanos;
    private boolean failed;

    public ClusterGauges(InspectionStore store, long overdueThresholdMs, long cacheMs, long timeoutMs) {
        this.store = store;
        this.overdueThresholdMs = overdueThresholdMs;
        this.cacheMs = cacheMs;
        this.timeoutMs = timeoutMs;
    }

    /** Registers the gauges (names in docs/observe.md). */
    public ClusterGauges register(MeterRegistry registry) {
        gauge(registry, "bridge.messages.pending", "messages waiting in Redis for their due time (all instances)", StoreGauges::pending);
        gauge(registry, "bridge.messages.in.flight", "messages claimed by an instance (leased) and not yet settled (all instances)",
                StoreGauges::inFlight);
        gauge(registry, "bridge.messages.overdue", "pending messages due more than bridge.metrics.overdue-threshold-ms ago and not"
                + " yet claimed (all instances)", StoreGauges::overdue);
        gauge(registry, "bridge.messages.overdue.oldest.age.seconds", "how long the earliest pending message has been due without"
                + " being claimed; 0 when none is due (all instances)", g -> g.oldestOverdueMs() / 1000.0);
        gauge(registry, "bridge.dead.letters.stored", "dead letters kept in Redis for listing and replay (all instances)", StoreGauges::dead);
        long[] windows = StoreGauges.dueSoonWindowsSeconds();
        for (int i = 0; i < windows.length; i++) {
            int index = i;
            Gauge.builder("bridge.messages.due.soon", this, c -> c.value(g -> g.dueSoon()[index])).tag("within", windowLabel(windows[i]))
                    .description("pending messages not yet due that fall due within the next minute, ten minutes or hour (all instances)")
                    .register(registry);
        }
        return this;
    }

    private static String windowLabel(long seconds) {
        return seconds % 3600 == 0 ? seconds / 3600 + "h" : seconds / 60 + "m";
    }

    private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<StoreGauges> field) {
        Gauge.builder(name, this, c -> c.value(field)).description(description).register(registry);
    }

    private double value(ToDoubleFunction<StoreGauges> field) {
        StoreGauges gauges = current();
        return gauges == null ? Double.NaN : field.applyAsDouble(gauges);
    }

    /** The gauges, read again when the cached read is older than {@code cacheMs}; null when Redis did not answer. */
    public synchronized StoreGauges current() {
        if (readAtNanos != 0 && System.nanoTime() - readAtNanos < TimeUnit.MILLISECONDS.toNanos(cacheMs)) {
            return failed ? null : latest;
        }
        readAtNanos = System.nanoTime();
        try {
            CompletableFuture<StoreGauges> read = store.gauges(overdueThresholdMs);
            latest = read.get(timeoutMs, TimeUnit.MILLISECONDS);
            failed = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed = true;
        } catch (Exception e) {
            failed = true;
        }
        return failed ? null : latest;
    }
}
