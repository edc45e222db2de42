package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.store.connection.RedisConnection;
import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a second running bridge with this instance's id. Two instances must never share {@code bridge.instance-id}:
 * their static Kafka consumers would take each other's place in the group over and over, and their health probes would
 * share a key. Every {@code intervalMs} the guard writes this process's token to {@code <prefix>:instance:<id>} (expiring
 * after three intervals) and reads, in the same command, what it replaced. Once it has written, any other token there
 * means that another process wrote since: another bridge runs with this id.
 *
 * <p>What the first write replaces is not judged: it may be this instance's own previous process, killed and restarted
 * at once, whose token outlives it. A real second bridge shows at the next write, since it writes too.
 *
 * <p>While the id is shared: one error line naming the other process, and {@link #sharedWith()} for the readiness
 * check. It ends once no other token has been found for three intervals (as long as a token lives): the other process
 * stopped, or took another id.
 */
public final class InstanceIdGuard implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceIdGuard.class);
    public static final long DEFAULT_INTERVAL_MS = 5_000;

    private final RedisConnection redis;
    private final String key;
    private final String instanceId;
    private final long intervalMs;
    private final long timeoutMs;
    private final String token = processToken();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "instance-id-guard");
        thread.setDaemon(true);
        return thread;
    });
    private boolean written;
    private long foreignSeenAtNanos;
    private volatile String sharedWith;

    public InstanceIdGuard(RedisConnection redis, String key, String instanceId, long intervalMs, long timeoutMs) {
        this.redis = redis;
        this.key = key;
        this.instanceId = instanceId;
        this.intervalMs = intervalMs;
        this.timeoutMs = timeoutMs;
    }

    /** Writes at once, then every interval, in the background. */
    public InstanceIdGuard start() {
        timer.scheduleWithFixedDelay(this::renew, 0, intervalMs, TimeUnit.MILLISECONDS);
        return this;
    }

    /** The token of the other process that runs with this instance id, or null while the id is this process's alone. */
    public String sharedWith() {
        return sharedWith;
    }

    /** This process's token: host, process id, start time and a random part (a restarted process never has its predecessor's). */
    public String token() {
        return token;
    }

    /** One write and its verdict; the timer calls it every interval (package-private for tests that order the writes). */
    void renew() {
        String previous;
        try {
            previous = redis.replace(key, token, ttlMs()).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception redisUnavailable) {
            return; // the Redis readiness check reports it; the next write judges again
        }
        boolean first = !written;
        written = true;
        if (first) {
            return;
        }
        long now = System.nanoTime();
        if (previous == null || previous.equals(token)) {
            // two writers with the same interval now and then write twice in a row each (their order swaps), so one clean
            // write proves nothing: the id is this process's alone again once no other token has been seen for as long as a
            // token lives
            if (sharedWith != null && now - foreignSeenAtNanos > TimeUnit.MILLISECONDS.toNanos(ttlMs())) {
                LOG.info("bridge.instance-id {}: no other process has written it for {} ms; it is this process's alone again", instanceId,
                        ttlMs());
                sharedWith = null;
            }
            return;
        }
        foreignSeenAtNanos = now;
        if (sharedWith == null) {
            LOG.error("bridge.instance-id {} is also used by another running bridge ({}; this one: {}): their Kafka consumers take each"
                    + " other's place in the group over and over. Give every instance an id of its own; readiness is DOWN until then",
                    instanceId, previous, token);
        }
        sharedWith = previous;
    }

    /** How long a token lives unless renewed: three intervals. */
    private long ttlMs() {
        return 3 * intervalMs;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    private static String processToken() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown host";
        }
        return "host " + host + ", pid " + ProcessHandle.current().pid() + ", started " + Instant.now().truncatedTo(ChronoUnit.SECONDS)
                + ", #" + Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
    }
}
