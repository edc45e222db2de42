package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a message that was not sent ({@link NotSentException}) back to the due set, with no attempt counted, due after a
 * wait that grows with how long the cause has held (50 ms to 30 s, jittered so a burst does not come back at once), and
 * never before its own due time. Says so in the log at most every ten seconds, once a target has been quiet long enough
 * for it to be news.
 */
final class GiveBack {

    private static final Logger LOG = LoggerFactory.getLogger(GiveBack.class);
    /**
     * The shortest wait of a message given back: a target that has been quiet only a moment (a new one whose first
     * confirms are on their way while a burst falls due) should get its messages again as soon as it answers, not a
     * second later; one quiet for long waits about as long as it has been quiet.
     */
    private static final long MIN_DEFER_MS = 50;
    private static final long MAX_DEFER_MS = 30_000;
    private static final long LOG_DEFERRALS_EVERY_MS = 10_000;

    private final DispatchStore store;
    private final ReleaseClock releaseClock;
    private final BridgeMetrics metrics;
    private final AtomicLong deferralsSinceLog = new AtomicLong();
    private volatile long lastDeferralLogAt;

    GiveBack(DispatchStore store, ReleaseClock releaseClock, BridgeMetrics metrics) {
        this.store = store;
        this.releaseClock = releaseClock;
        this.metrics = metrics;
    }

    /** Completes once Redis has the message back in the due set. */
    CompletableFuture<?> giveBack(OutgoingMessage outgoing, NotSentException notSent, long now) {
        long held = Math.max(0, now - notSent.waitingSinceEpochMs());
        long deferMs = Math.min(MAX_DEFER_MS, Math.max(MIN_DEFER_MS, held));
        deferMs = deferMs / 2 + ThreadLocalRandom.current().nextLong(deferMs / 2 + 1);
        // a message claimed ahead and not sent goes back no earlier than it was due: never early
        deferMs = Math.max(deferMs, TimeUnit.NANOSECONDS.toMillis(releaseClock.nanosUntil(outgoing.message.dueAt()) + 999_999));
        metrics.publishDeferred();
        long sinceLog = deferralsSinceLog.incrementAndGet();
        // a target quiet for less than a second is backpressure in a burst, not news
        if (held >= TargetLoad.PROGRESS_WINDOW_MS && now - lastDeferralLogAt >= LOG_DEFERRALS_EVERY_MS) {
            lastDeferralLogAt = now;
            deferralsSinceLog.set(0);
            LOG.warn("{} message(s) not sent and given back to Redis for later, no attempt counted (logged at most every {} s);"
                    + " latest: {} for {}, retried in {} ms: {}", sinceLog, LOG_DEFERRALS_EVERY_MS / 1000, outgoing.message.messageId(),
                    outgoing.target.uri(), deferMs, notSent.getMessage());
        }
        return store.reschedule(outgoing.message, deferMs, false);
    }
}
