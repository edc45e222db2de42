package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.MessageLogContext;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.PublishFailures;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.dispatch.RecordedFailure;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What happens to a claimed message whose publish failed. A permanent failure ({@link PublishFailures}: unroutable, too
 * large, not allowed by the broker) or an unreadable record is dead-lettered at once. Any other failure is counted in Redis,
 * which also says how long the message has been failing; it is rescheduled with backoff until that age passes
 * {@code bridge.retry.max-age-ms} (or the optional {@code bridge.retry.max-attempts}), then dead-lettered as
 * {@code publish-failed}. Either way the message leaves the in-flight set only through a script that checks its lease, and
 * a dead letter that cannot be recorded is retried later. Each retriable failure counts towards parking the target
 * ({@link ParkedTargets#failed}); a message of a parked target that waited too long is dead-lettered as {@code publish-failed}.
 */
final class RetryOrDeadLetter {

    private static final Logger LOG = LoggerFactory.getLogger(RetryOrDeadLetter.class);

    private final DispatchStore store;
    private final DeadLetters deadLetters;
    private final RetryPolicy retryPolicy;
    private final ParkedTargets parked;
    private final BridgeMetrics metrics;
    private final RetryWarnings retryWarnings = new RetryWarnings();

    RetryOrDeadLetter(DispatchStore store, DeadLetters deadLetters, RetryPolicy retryPolicy, ParkedTargets parked, BridgeMetrics metrics) {
        this.store = store;
        this.parked = parked;
        this.deadLetters = deadLetters;
        this.retryPolicy = retryPolicy;
        this.metrics = metrics;
    }

    /** Completes once Redis holds the decision (rescheduled, or dead-lettered and gone from the delivery structures). */
    CompletableFuture<?> publishFailed(ClaimedMessage message, String target, Throwable failure) {
        if (Failures.unwrap(failure) instanceof MessageExpiredException expired) {
            return deadLetter(message, DeadLetterRecords.expired(message, expired), message.attempts());
        }
        if (Failures.unwrap(failure) instanceof ParkedTooLongException tooLong) {
            return deadLetter(message, DeadLetterRecords.parkedTooLong(message, tooLong), message.attempts());
        }
        int failedAttempts = message.attempts() + 1;
        metrics.publishFailed();
        if (Failures.unwrap(failure) instanceof PayloadMissingException) {
            return deadLetter(message, DeadLetterRecords.payloadMissing(message), failedAttempts);
        }
        if (Failures.unwrap(failure) instanceof UnreadableRecordException) {
            return deadLetter(message, DeadLetterRecords.corruptEnvelope(message, failure), failedAttempts);
        }
        if (PublishFailures.isPermanent(failure)) {
            return deadLetter(message, DeadLetterRecords.permanentFailure(message, failedAttempts, failure), failedAttempts);
        }
        if (retryPolicy.exhausted(failedAttempts)) {
            return deadLetter(message, DeadLetterRecords.attemptsExhausted(message, failedAttempts, failure), failedAttempts);
        }
        if (target != null) {
            parked.failed(target, failure); // a target that keeps failing is parked: its messages then wait out of the claims' way
        }
        return store.recordFailure(message).thenCompose(recorded -> retryOrGiveUp(message, target, recorded, failure));
    }

    private CompletableFuture<?> retryOrGiveUp(ClaimedMessage message, String target, RecordedFailure recorded, Throwable failure) {
        if (recorded.leaseLost()) {
            // its lease expired and it went back to the due set: whoever claims it next decides
            LOG.debug("publishing {} failed after its lease expired; it is delivered again", message.messageId());
            return CompletableFuture.completedFuture(null);
        }
        if (retryPolicy.tooOld(recorded.failingForMs())) {
            return deadLetter(message, DeadLetterRecords.failingTooLong(message, recorded.attempts(), recorded.failingForMs(),
                    recorded.failingSince(), retryPolicy.maxAgeMs(), failure), recorded.attempts());
        }
        long backoff = retryPolicy.backoffMs(recorded.attempts());
        retryWarnings.retrying(message.messageId(), target, recorded.attempts(), recorded.failingForMs(), backoff, failure);
        // counted by recordFailure already
        metrics.retriedAfterFailure();
        return store.reschedule(message, backoff, false);
    }

    private CompletableFuture<?> deadLetter(ClaimedMessage message, DeadLetter deadLetter, int failedAttempts) {
        try (MessageLogContext context = MessageLogContext.of(message.messageId(), deadLetter.target())) {
            LOG.atError().addKeyValue("event", "dead-letter").addKeyValue("reason", deadLetter.reason().code())
                    .addKeyValue("attempts", failedAttempts).addKeyValue("detail", deadLetter.detail())
                    .log("dead-lettering {}: {} ({})", message.messageId(), deadLetter.reason().code(), deadLetter.detail());
        }
        metrics.deadLettered(deadLetter.reason());
        return deadLetters.recordUndeliverable(message, deadLetter)
                .exceptionallyCompose(deadLetterFailed -> {
                    LOG.warn("could not dead-letter {}, retrying later: {}", message.messageId(), Failures.rootMessage(deadLetterFailed));
                    return store.reschedule(message, retryPolicy.backoffMs(failedAttempts), false);
                });
    }
}
