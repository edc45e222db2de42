package io.github.redisdelaybridge.health;

import io.github.redisdelaybridge.store.connection.RedisConnection;
import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices a second running bridge with this instance's id. Two instances must never share {@code bridge.instance-id}:
 * their static Kafka consumers would take each other's place in the group over and over, and their health probes would
 * share a key. Every {@code intervalMs} the guard writes this process's token to {@code <prefix>:instance:<id>} (expiring
 * after three intervals) and reads, in the same command, what it replaced. Once it has written, any other token there
 * means that another process wrote since: another bridge runs with this id.
 *
 * <p>What the first write replaces is not judged as sharing: it may be this instance's own previous process, killed and
 * restarted at once, whose token outlives it. A real second bridge shows at the next write, since it writes too.
 *
 * <p>The first write also decides whether the process that held the id before is gone, and then tells the
 * {@link Takeover} listener (which gives that process's leases back at once): gone when the id was free (its token had
 * expired), or when its token is older than an interval plus {@code timeoutMs} plus a second (a live holder renews every
 * interval, each write taking at most {@code timeoutMs}); otherwise once that much time has passed since its last write
 * and the key still holds this process's token, no other token having been seen meanwhile. While another process writes
 * the id, nothing is taken: the first of two processes started at once with a free id takes back only what was claimed
 * before it took the id, the second finds the first's live token and takes nothing.
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
    private final Takeover takeover;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "instance-id-guard");
        thread.setDaemon(true);
        return thread;
    });
    private boolean written;
    private long foreignSeenAtNanos;
    /** Whether any write found another process's token after the first: then the previous holder is never taken for gone. */
    private boolean foreignSeen;
    private volatile String sharedWith;

    /** What to do once this process took the instance id from a process that is gone. */
    @FunctionalInterface
    public interface Takeover {
        /**
         * @param tookIdAt       when this process took the id (Redis's clock, epoch ms, read just before its first write)
         * @param previousHolder the token of the process that held it, or null when the id was free
         */
        void tookIdFromGoneHolder(long tookIdAt, String previousHolder);
    }

    public InstanceIdGuard(RedisConnection redis, String key, String instanceId, long intervalMs, long timeoutMs) {
        this(redis, key, instanceId, intervalMs, timeoutMs, (tookIdAt, previousHolder) -> { });
    }

    public InstanceIdGuard(RedisConnection redis, String key, String instanceId, long intervalMs, long timeoutMs, Takeover takeover) {
        this.takeover = takeover;
        this.redis = redis;
        this.key = key;
        this.instanceId = instanceId;
        this.intervalMs = intervalMs;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Writes at once, waiting for that first write (at most a few times {@code timeoutMs}) so that this process claims no
     * message before it holds the id, then every interval, in the background.
     */
    public InstanceIdGuard start() {
        try {
            timer.submit(this::renew).get(3 * timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // the writes go on in the background; the first that succeeds is judged as first
        }
        timer.scheduleWithFixedDelay(this::renew, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
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
    synchronized void renew() {
        String previous;
        long tookIdAt = 0;
        long previousTtlMs = -2;
        try {
            if (!written) {
                tookIdAt = redis.redisTimeMs().get(timeoutMs, TimeUnit.MILLISECONDS);
                previousTtlMs = redis.remainingTtlMs(key).get(timeoutMs, TimeUnit.MILLISECONDS);
            }
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
            judgePreviousHolder(tookIdAt, previous, previousTtlMs);
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
        foreignSeen = true;
        if (sharedWith == null) {
            LOG.error("bridge.instance-id {} is also used by another running bridge ({}; this one: {}): their Kafka consumers take each"
                    + " other's place in the group over and over. Give every instance an id of its own; readiness is DOWN until then",
                    instanceId, previous, token);
        }
        sharedWith = previous;
    }

    /**
     * After the first write: the previous holder is gone when the id was free or its token is older than a live holder's can
     * be; otherwise that is checked once its next renewal is overdue.
     */
    private void judgePreviousHolder(long tookIdAt, String previous, long previousTtlMs) {
        if (previous == null) {
            tookIdFromGoneHolder(tookIdAt, null);
            return;
        }
        // a token's age from its remaining time to live (its writer's interval is this one's); unknown: as if just written
        long ageMs = previousTtlMs < 0 ? 0 : Math.max(0, ttlMs() - previousTtlMs);
        long overdueInMs = renewalOverdueAfterMs() - ageMs;
        if (overdueInMs <= 0) {
            tookIdFromGoneHolder(tookIdAt, previous);
            return;
        }
        try {
            timer.schedule(() -> confirmGone(tookIdAt, previous), overdueInMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the bridge stops
        }
    }

    /** The previous holder's renewal is overdue: gone if nobody but this process has written the id since it took it. */
    private synchronized void confirmGone(long tookIdAt, String previous) {
        String holder;
        try {
            holder = redis.read(key).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (Exception redisUnavailable) {
            LOG.info("bridge.instance-id {}: could not check whether its previous holder ({}) is gone; its leases wait out their"
                    + " lease", instanceId, previous);
            return;
        }
        if (token.equals(holder) && !foreignSeen) {
            tookIdFromGoneHolder(tookIdAt, previous);
        } else {
            LOG.info("bridge.instance-id {}: its previous holder ({}) or another process still writes it; its leases are not taken"
                    + " back, they wait out their lease", instanceId, previous);
        }
    }

    private void tookIdFromGoneHolder(long tookIdAt, String previous) {
        Thread thread = new Thread(() -> {
            try {
                takeover.tookIdFromGoneHolder(tookIdAt, previous);
            } catch (RuntimeException e) {
                LOG.warn("bridge.instance-id {}: could not take back the leases of its previous holder; they wait out their lease",
                        instanceId, e);
            }
        }, "instance-id-takeover");
        thread.setDaemon(true);
        thread.start();
    }

    /** How long after its last write a live holder has surely written again: an interval, a write's timeout and a second. */
    private long renewalOverdueAfterMs() {
        return intervalMs + timeoutMs + 1_000;
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
