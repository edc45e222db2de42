package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.message.MessageLogContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of failed publishes that are retried: one WARN per interval, saying how many more failed since the last one,
 * the rest at DEBUG. Retries are bounded by time, so a target that is down for an hour sees every waiting message fail
 * again every minute or so; a line each would bury everything else in the log. Dead letters are logged one by one.
 */
final class RetryWarnings {

    /** Under the decision's own logger, so that a log level set for {@link RetryOrDeadLetter} covers its retries too. */
    private static final Logger LOG = LoggerFactory.getLogger(RetryOrDeadLetter.class);
    static final long INTERVAL_MS = 10_000;

    private long lastWarningAt = Long.MIN_VALUE / 2;
    private long notWarned;

    /** One structured line per retry: at WARN at most once per interval, at DEBUG otherwise. */
    void retrying(String messageId, String target, int attempts, long failingForMs, long backoffMs, Throwable failure) {
        long now = System.currentTimeMillis();
        long others;
        boolean warn;
        synchronized (this) {
            warn = now - lastWarningAt >= INTERVAL_MS;
            if (warn) {
                others = notWarned;
                notWarned = 0;
                lastWarningAt = now;
            } else {
                others = 0;
                notWarned++;
            }
        }
        String error = Failures.rootMessage(failure);
        try (MessageLogContext context = MessageLogContext.of(messageId, target)) {
            (warn ? LOG.atWarn() : LOG.atDebug()).addKeyValue("event", "retry").addKeyValue("attempt", attempts)
                    .addKeyValue("failingForMs", failingForMs).addKeyValue("retryInMs", backoffMs).addKeyValue("error", error)
                    .log("publishing {} failed (attempt {}, failing for {} ms), retrying in {} ms: {}{}", messageId, attempts, failingForMs,
                            backoffMs, error, others == 0 ? "" : " (and " + others + " other failed publishes retried since the last warning)");
        }
    }
}
