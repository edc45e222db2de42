package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a claimed message whose publish failed: rescheduled with backoff, or dead-lettered when
 * its retries are exhausted or its record cannot be read. Either way it leaves the in-flight set only
 * through a script that checks its lease, and a dead letter that cannot be recorded is retried later.
 */
final class RetryOrDeadLetter {

    private static final Logger LOG = LoggerFactory.getLogger(RetryOrDeadLetter.class);

    private final DelayStore store;
    private final DeadLetters deadLetters;
    private final RetryPolicy retryPolicy;
    private final BridgeMetrics metrics;

    RetryOrDeadLetter(DelayStore store, DeadLetters deadLetters, RetryPolicy retryPolicy, BridgeMetrics metrics) {
        this.store = store;
        this.deadLetters = deadLetters;
        this.retryPolicy = retryPolicy;
        this.metrics = metrics;
    }

    /** Completes once Redis holds the decision (rescheduled, or dead-lettered and gone from the delivery structures). */
    CompletableFuture<?> publishFailed(ClaimedMessage message, Throwable failure) {
        int failedAttempts = message.attempts() + 1;
        metrics.publishFailed();
        boolean payloadMissing = Failures.unwrap(failure) instanceof PayloadMissingException;
        boolean unreadable = payloadMissing || Failures.unwrap(failure) instanceof UnreadableRecordException;
        if (!unreadable && !retryPolicy.exhausted(failedAttempts)) {
            long backoff = retryPolicy.backoffMs(failedAttempts);
            LOG.warn("publishing {} failed (attempt {} of {}), retrying in {} ms: {}", message.messageId(), failedAttempts,
                    retryPolicy.maxAttempts(), backoff, Failures.rootMessage(failure));
            return store.reschedule(message, backoff, true);
        }
        DeadLetter deadLetter = payloadMissing ? DeadLetterRecords.payloadMissing(message)
                : unreadable ? DeadLetterRecords.corruptEnvelope(message, failure)
                : DeadLetterRecords.publishFailed(message, failedAttempts, failure);
        LOG.error("dead-lettering {}: {} ({})", message.messageId(), deadLetter.reason().code(), deadLetter.detail());
        metrics.deadLettered(deadLetter.reason());
        return deadLetters.recordUndeliverable(message, deadLetter)
                .exceptionallyCompose(deadLetterFailed -> {
                    LOG.warn("could not dead-letter {}, retrying later: {}", message.messageId(), Failures.rootMessage(deadLetterFailed));
                    return store.reschedule(message, retryPolicy.backoffMs(failedAttempts), false);
                });
    }
}
