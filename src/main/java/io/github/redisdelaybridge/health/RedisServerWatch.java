package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.connection.RedisRequirements.Finding;
import io.github.redisdelaybridge.store.connection.RedisRequirements;
import io.github.redisdelaybridge.store.connection.RedisServerFacts;
import io.github.redisdelaybridge.store.connection.RedisServerFactsReader;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the Redis masters against {@link RedisRequirements}: first as soon as Redis is reached (at start, or
 * whenever it comes), then every {@code checkIntervalMs}. A fatal finding at the first check stops the bridge (one
 * line, non-zero exit); later, and for tolerated problems, it is a warning at every check (every few minutes).
 * Each check also tells the {@link DurabilityBarrier} what the masters support. {@link #redisAvailable()} is the
 * state a readiness check can use.
 */
public final class RedisServerWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisServerWatch.class);
    /** How often to look for Redis before the first check has run. */
    private static final long UNTIL_FIRST_CHECK_MS = 1_000;

    private final RedisConnection redis;
    private final RedisServerFactsReader reader;
    private final DurabilityBarrier barrier;
    private final boolean allowEviction;
    private final long checkIntervalMs;
    private final long timeoutMs;
    private final Consumer<String> stopBridge;
    private final Set<String> notesSaid = new HashSet<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "redis-check");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean checked;
    private volatile boolean fatal;
    private volatile String lastFailure;

    /** @param stopBridge stops the bridge with a non-zero exit, given the reason (for a fatal finding after the start) */
    public RedisServerWatch(RedisConnection redis, DurabilityBarrier barrier, boolean allowEviction, long checkIntervalMs, long timeoutMs,
                            Consumer<String> stopBridge) {
        this.redis = redis;
        this.reader = new RedisServerFactsReader(redis);
        this.barrier = barrier;
        this.allowEviction = allowEviction;
        this.checkIntervalMs = checkIntervalMs;
        this.timeoutMs = timeoutMs;
        this.stopBridge = stopBridge;
    }

    /**
     * At start: checks at once if Redis is connected already, and throws {@link RedisRequirementsException} on a fatal
     * finding (the bridge does not start). Then checks in the background: first when Redis comes, then periodically.
     */
    public void start() {
        if (redis.isConnected()) {
            List<Finding> fatalFindings = check();
            if (!fatalFindings.isEmpty()) {
                throw new RedisRequirementsException(fatalFindings.get(0).text());
            }
        }
        timer.schedule(this::checkInBackground, checked ? checkIntervalMs : UNTIL_FIRST_CHECK_MS, TimeUnit.MILLISECONDS);
    }

    private void checkInBackground() {
        boolean first = !checked;
        List<Finding> fatalFindings = redis.isConnected() ? check() : List.of();
        if (first && !fatalFindings.isEmpty()) {
            stopBridge.accept(fatalFindings.get(0).text());
            return;
        }
        if (!timer.isShutdown()) {
            timer.schedule(this::checkInBackground, checked ? checkIntervalMs : UNTIL_FIRST_CHECK_MS, TimeUnit.MILLISECONDS);
        }
    }

    /** One check: reads the masters, logs what is wrong, updates the barrier. Returns the fatal findings. */
    List<Finding> check() {
        boolean first = !checked;
        List<RedisServerFacts> masters;
        try {
            masters = reader.readMasters().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (Exception e) {
            String failure = Failures.rootMessage(e);
            if (!failure.equals(lastFailure)) {
                LOG.warn("could not check the Redis servers: {}", failure);
            }
            lastFailure = failure;
            return List.of();
        }
        lastFailure = null;
        List<Finding> findings = RedisRequirements.check(masters, barrier.settings(), allowEviction);
        List<Finding> fatalFindings = findings.stream().filter(f -> f.severity() == RedisRequirements.Severity.FATAL).toList();
        if (first && !fatalFindings.isEmpty()) {
            fatal = true;
            fatalFindings.forEach(f -> LOG.error("cannot run on this Redis: {}", f.text()));
            return fatalFindings;
        }
        for (Finding finding : findings) {
            if (finding.severity() != RedisRequirements.Severity.NOTE || notesSaid.add(finding.text())) {
                LOG.warn("{}", finding.text());
            }
        }
        barrier.serversChecked(masters);
        if (first) {
            DurabilitySettings durability = barrier.settings();
            LOG.info("Redis checked: {}; a batch is acknowledged upstream once Redis confirmed it: {} (wait-replicas={}, wait-aof-local={})",
                    masters.stream().map(m -> m.address() + " " + m.version() + " maxmemory-policy=" + m.maxmemoryPolicy() + " aof="
                            + (m.aofEnabled() ? "yes/" + (m.appendfsync() == null ? "?" : m.appendfsync()) : "no") + " replicas="
                            + m.connectedReplicas()).collect(Collectors.joining(", ")),
                    barrier.describePlan(), durability.waitReplicasCode() + (durability.waitsForEveryConnectedReplica()
                            ? ", min-replicas=" + durability.minReplicas() : ""), durability.localFsync().code());
        }
        checked = true;
        return List.of();
    }

    /** True while Redis is connected, its servers have been checked and nothing fatal was found: a readiness check can use it. */
    public boolean redisAvailable() {
        return redis.isConnected() && checked && !fatal;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
