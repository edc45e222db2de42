package io.github.redisdelaybridge.store.connection;

import io.github.redisdelaybridge.message.Failures;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the first connection to Redis: one attempt at once, then in the background with capped backoff until
 * it succeeds, so that a bridge started before its Redis runs (not ready) and connects when Redis comes. Once
 * connected, Lettuce keeps the connection up by itself. Log lines are bounded: the first failure, then one
 * line a minute while Redis stays away, then one when it is reached.
 */
final class RedisConnector implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisConnector.class);
    private static final long FIRST_RETRY_MS = 250;
    private static final long MAX_RETRY_MS = 5_000;
    private static final long LOG_EVERY_MS = 60_000;

    private final String description;
    private final Runnable connectOnce;
    private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "redis-connect");
        thread.setDaemon(true);
        return thread;
    });
    private long firstFailureAt;
    private long lastLoggedAt;
    private volatile boolean closed;

    /** @param connectOnce one attempt; throws when Redis cannot be reached */
    RedisConnector(String description, Runnable connectOnce) {
        this.description = description;
        this.connectOnce = connectOnce;
    }

    /** Tries once in the caller's thread; on failure goes on in the background. */
    void start() {
        if (!attempt()) {
            retries.schedule(() -> retry(FIRST_RETRY_MS), FIRST_RETRY_MS, TimeUnit.MILLISECONDS);
        }
    }

    private void retry(long lastDelayMs) {
        if (closed || attempt()) {
            retries.shutdown();
            return;
        }
        long nextDelayMs = Math.min(MAX_RETRY_MS, lastDelayMs * 2);
        retries.schedule(() -> retry(nextDelayMs), nextDelayMs, TimeUnit.MILLISECONDS);
    }

    private boolean attempt() {
        try {
            connectOnce.run();
            if (firstFailureAt != 0) {
                LOG.info("connected to Redis {} after {} s without it", description, (System.currentTimeMillis() - firstFailureAt) / 1000);
            }
            return true;
        } catch (RuntimeException e) {
            long now = System.currentTimeMillis();
            if (firstFailureAt == 0) {
                firstFailureAt = now;
                lastLoggedAt = now;
                LOG.warn("Redis {} cannot be reached ({}); the bridge runs without it, not ready, holds inbound messages"
                        + " unacknowledged and connects as soon as Redis answers", description, Failures.rootMessage(e));
            } else if (now - lastLoggedAt >= LOG_EVERY_MS) {
                lastLoggedAt = now;
                LOG.warn("Redis {} still cannot be reached after {} s: {}", description, (now - firstFailureAt) / 1000, Failures.rootMessage(e));
            }
            return false;
        }
    }

    @Override
    public void close() {
        closed = true;
        retries.shutdownNow();
    }
}
