package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.Failures;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one step of storing a batch (Redis writes, dead letters) until it succeeds, with backoff. With
 * {@code maxAttempts} 0 it tries for as long as the bridge runs (Kafka: the consumer holds the batch and
 * the source keeps everything); with a bound (RabbitMQ) it gives up after that many. Giving up and
 * stopping both throw, so the batch is never acknowledged upstream.
 */
final class BatchRetry {

    private static final Logger LOG = LoggerFactory.getLogger(BatchRetry.class);
    private static final long OPERATION_TIMEOUT_MS = 30_000;
    private static final long FIRST_BACKOFF_MS = 100;
    private static final long MAX_BACKOFF_MS = 2_000;
    /** While retrying without bound, one warning every this many attempts (about 40 s at the longest backoff). */
    private static final int LOG_EVERY_ATTEMPTS = 20;

    private final BooleanSupplier stopping;
    private final int maxAttempts;

    BatchRetry(BooleanSupplier stopping, int maxAttempts) {
        this.stopping = stopping;
        this.maxAttempts = maxAttempts;
    }

    /** True when a bounded retry has used up its attempts after {@code attempts} (never for an unbounded one). */
    boolean gaveUpAfter(int attempts) {
        return maxAttempts > 0 && attempts >= maxAttempts;
    }

    /** @param what the step, as it reads after "could not": "store 12 messages in Redis" */
    <T> T untilDone(String what, Supplier<CompletableFuture<T>> operation) throws InterruptedException {
        long backoffMs = FIRST_BACKOFF_MS;
        for (int attempt = 1; ; attempt++) {
            try {
                T result = operation.get().get(OPERATION_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                if (attempt > 1) {
                    LOG.info("{} succeeded after {} attempts", what, attempt);
                }
                return result;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                if (stopping.getAsBoolean()) {
                    throw new IllegalStateException("bridge stopping; batch left unacknowledged upstream: could not " + what, e);
                }
                if (maxAttempts > 0 && attempt >= maxAttempts) {
                    throw new IllegalStateException("gave up after " + attempt + " attempts, batch not acknowledged upstream: could not "
                            + what + ": " + Failures.rootMessage(e), e);
                }
                if (maxAttempts == 0 && (attempt == 1 || attempt % LOG_EVERY_ATTEMPTS == 0)) {
                    LOG.warn("could not {} (attempt {}), holding the batch and retrying: {}", what, attempt, Failures.rootMessage(e));
                }
                Thread.sleep(backoffMs);
                backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
            }
        }
    }
}
