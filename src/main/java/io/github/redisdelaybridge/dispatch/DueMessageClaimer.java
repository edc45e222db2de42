package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.ClaimedBatch;
import io.github.redisdelaybridge.store.ClaimedMessage;
import io.github.redisdelaybridge.store.DelayStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due messages from every slot in one pipelined round trip, under a lease. The round starts at a
 * rotating slot so that no slot is always served last when the limit is smaller than what is due.
 */
final class DueMessageClaimer {

    private static final Logger LOG = LoggerFactory.getLogger(DueMessageClaimer.class);

    private final DelayStore store;
    private final DispatchSettings settings;
    /** While claims fail, the loop waits this long before the next try, doubling up to {@link #MAX_BACKOFF_MS}. */
    static final long FIRST_BACKOFF_MS = 50;
    static final long MAX_BACKOFF_MS = 2_000;

    private int nextSlot;
    private long redisUnavailableSince;
    private long backoffMs;

    DueMessageClaimer(DelayStore store, DispatchSettings settings) {
        this.store = store;
        this.settings = settings;
    }

    /** Claims up to {@code limit} messages (spread over the slots); null when Redis failed (logged once per outage). */
    ClaimRound claim(int limit) {
        try {
            ClaimRound round = claimFromEverySlot(limit);
            if (redisUnavailableSince != 0) {
                LOG.info("Redis answers again after {} ms; dispatching resumes", System.currentTimeMillis() - redisUnavailableSince);
                redisUnavailableSince = 0;
            }
            backoffMs = 0;
            return round;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception e) {
            if (redisUnavailableSince == 0) {
                redisUnavailableSince = System.currentTimeMillis();
                LOG.warn("cannot claim due messages, dispatching paused until Redis answers: {}", Failures.rootMessage(e));
            }
            backoffMs = backoffMs == 0 ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, backoffMs * 2);
            return null;
        }
    }

    /**
     * How long to wait before claiming again after a failed claim: a claim fails at once while Redis is down (Lettuce
     * rejects commands when disconnected), so without a pause the loop would spin. 0 after a successful claim.
     */
    long backoffMs() {
        return backoffMs;
    }

    private ClaimRound claimFromEverySlot(int limit) throws Exception {
        int slots = store.keys().slotCount();
        int perSlot = Math.max(1, limit / slots);
        List<CompletableFuture<ClaimedBatch>> claims = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) {
            claims.add(store.claim((nextSlot + i) % slots, perSlot, settings.leaseMs()));
        }
        nextSlot = (nextSlot + 1) % slots;
        long redisNow = 0;
        long nextDue = -1;
        List<ClaimedMessage> messages = new ArrayList<>();
        for (CompletableFuture<ClaimedBatch> claim : claims) {
            ClaimedBatch batch = claim.get(settings.redisTimeoutMs(), TimeUnit.MILLISECONDS);
            redisNow = Math.max(redisNow, batch.redisNow());
            if (batch.nextDue() >= 0 && (nextDue < 0 || batch.nextDue() < nextDue)) {
                nextDue = batch.nextDue();
            }
            messages.addAll(batch.messages());
        }
        messages.sort(Comparator.comparingLong(ClaimedMessage::dueAt).thenComparing(ClaimedMessage::messageId));
        return new ClaimRound(redisNow, nextDue, messages);
    }
}
