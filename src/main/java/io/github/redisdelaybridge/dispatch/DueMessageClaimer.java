package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.dispatch.ClaimTag;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due messages from every slot in one pipelined round trip, under a lease. The round starts at a
 * rotating slot so that no slot is always served last when the limit is smaller than what is due.
 *
 * <p>A slot whose claim fails (an error, a timeout, a lost connection; on a Redis Cluster, say, its master is down)
 * does not hold up the others: the round returns what the other slots gave, to be published at once. The failed
 * claim may still have run (a timeout says nothing about that), so before this claimer claims from that slot again
 * it gives back whatever the round took there ({@link DispatchStore#releaseClaim}: due at once, no attempt counted)
 * instead of leaving it to wait out its lease. Releasing a claim that did not run gives back nothing.
 */
final class DueMessageClaimer {

    private static final Logger LOG = LoggerFactory.getLogger(DueMessageClaimer.class);

    /** While claims fail, the loop waits this long before the next try, doubling up to {@link #MAX_BACKOFF_MS}. */
    static final long FIRST_BACKOFF_MS = 50;
    static final long MAX_BACKOFF_MS = 2_000;

    private final DispatchStore store;
    private final DispatchSettings settings;
    private final ReleaseClock releaseClock;
    private final String claimerId;
    /** Slots whose latest claim got no answer, and that claim's round: not claimed from again until it is released. */
    private final Map<Integer, ClaimTag> unanswered = new ConcurrentHashMap<>();
    /** Releases on their way, one per slot at most. */
    private final Map<Integer, CompletableFuture<Long>> releasing = new ConcurrentHashMap<>();
    /** When each failing slot's claims started failing (the dispatch thread's own). */
    private final Map<Integer, Long> slotFailingSince = new HashMap<>();

    private int nextSlot;
    private long round;
    private long redisUnavailableSince;
    private Throwable lastFailure;
    private long backoffMs;

    /** {@code releaseClock}: told what Redis's clock read in each answer, for holding messages claimed ahead until they are due. */
    DueMessageClaimer(DispatchStore store, DispatchSettings settings, ReleaseClock releaseClock) {
        this(store, settings, releaseClock, "");
    }

    /**
     * As above, for a bridge whose instance id is {@code instanceId}: the claimer id is {@code <instanceId>/<random>}, so that a
     * later process of the same id can tell this one's leases apart ({@code takeBackLeases.lua}); empty: just the random part.
     */
    DueMessageClaimer(DispatchStore store, DispatchSettings settings, ReleaseClock releaseClock, String instanceId) {
        String random = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        this.claimerId = instanceId.isEmpty() ? random : instanceId + "/" + random;
        this.store = store;
        this.settings = settings;
        this.releaseClock = releaseClock;
    }

    /** The id this claimer's claims are recorded under in every slot. */
    String claimerId() {
        return claimerId;
    }

    /**
     * Claims up to {@code limit} messages (spread over the slots) from every slot that answers; null when no slot
     * answered (logged once per outage).
     */
    ClaimRound claim(int limit) {
        try {
            ClaimRound claimed = claimFromEverySlot(limit);
            if (claimed == null) {
                if (redisUnavailableSince == 0) {
                    redisUnavailableSince = System.currentTimeMillis();
                    LOG.warn("cannot claim due messages from any slot, dispatching paused until Redis answers{}",
                            lastFailure == null ? "" : ": " + Failures.rootMessage(lastFailure));
                }
                backoffMs = backoffMs == 0 ? FIRST_BACKOFF_MS : Math.min(MAX_BACKOFF_MS, backoffMs * 2);
                return null;
            }
            if (redisUnavailableSince != 0) {
                LOG.info("Redis answers again after {} ms; dispatching resumes", System.currentTimeMillis() - redisUnavailableSince);
                redisUnavailableSince = 0;
            }
            backoffMs = 0;
            return claimed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * How long to wait before claiming again after a round in which no slot answered: a claim fails at once while
     * Redis is down (Lettuce rejects commands when disconnected), so without a pause the loop would spin. 0 after a
     * round that claimed.
     */
    long backoffMs() {
        return backoffMs;
    }

    private ClaimRound claimFromEverySlot(int limit) throws InterruptedException {
        int slots = store.keys().slotCount();
        releaseUnanswered();
        ClaimTag tag = new ClaimTag(claimerId, ++round);
        int perSlot = Math.max(1, limit / slots);
        Map<Integer, CompletableFuture<ClaimedBatch>> claims = new LinkedHashMap<>();
        for (int i = 0; i < slots; i++) {
            int slot = (nextSlot + i) % slots;
            if (!unanswered.containsKey(slot)) {
                claims.put(slot, claim(slot, perSlot, tag));
            }
        }
        nextSlot = (nextSlot + 1) % slots;
        if (claims.isEmpty()) {
            awaitReleases();
            return null;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.redisTimeoutMs());
        long redisNow = 0;
        long nextDue = -1;
        boolean anyAnswered = false;
        Map<Integer, Throwable> failed = new LinkedHashMap<>();
        List<ClaimedMessage> messages = new ArrayList<>();
        for (Map.Entry<Integer, CompletableFuture<ClaimedBatch>> claim : claims.entrySet()) {
            ClaimedBatch batch;
            try {
                batch = claim.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                releaseClock.observe(batch.redisNow(), System.nanoTime());
            } catch (ExecutionException | TimeoutException e) {
                // it may have run and leased messages this round will never see: give them back before claiming there again
                unanswered.put(claim.getKey(), tag);
                lastFailure = e instanceof ExecutionException ? e.getCause() : e;
                failed.put(claim.getKey(), lastFailure);
                continue;
            }
            anyAnswered = true;
            answered(claim.getKey(), slots);
            redisNow = Math.max(redisNow, batch.redisNow());
            if (batch.nextDue() >= 0 && (nextDue < 0 || batch.nextDue() < nextDue)) {
                nextDue = batch.nextDue();
            }
            messages.addAll(batch.messages());
        }
        for (Map.Entry<Integer, Throwable> failure : failed.entrySet()) {
            slotFailed(failure.getKey(), failure.getValue(), anyAnswered);
        }
        if (!anyAnswered) {
            return null;
        }
        // by due time alone, a stable sort of runs already in due order (each claim call's answer): in a backlog every message
        // may be due in the same millisecond, and comparing their ids as well would cost the loop a string comparison each
        messages.sort(Comparator.comparingLong(ClaimedMessage::dueAt));
        return new ClaimRound(redisNow, nextDue, messages);
    }

    private CompletableFuture<ClaimedBatch> claim(int slot, int limit, ClaimTag tag) {
        try {
            return store.claim(slot, limit, settings.leaseMs(), tag, settings.claimAheadMs());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Sends one release per slot whose claim went unanswered (unless one is on its way); a failed release is sent again next round. */
    private void releaseUnanswered() {
        unanswered.forEach((slot, tag) -> {
            if (releasing.containsKey(slot)) {
                return;
            }
            CompletableFuture<Long> release;
            try {
                release = store.releaseClaim(slot, tag);
            } catch (RuntimeException e) {
                return;
            }
            releasing.put(slot, release);
            release.whenComplete((released, failure) -> {
                releasing.remove(slot);
                if (failure == null) {
                    unanswered.remove(slot, tag);
                    if (released > 0) {
                        LOG.info("gave back {} messages of slot {} that a claim whose answer was lost had leased; they are dispatched"
                                + " again now, no attempt counted", released, slot);
                    }
                }
            });
        });
    }

    /** Nothing could be claimed: wait a moment for the releases that would let claiming resume, instead of spinning. */
    private void awaitReleases() throws InterruptedException {
        try {
            CompletableFuture.allOf(releasing.values().toArray(CompletableFuture[]::new))
                    .get(settings.redisTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException stillFailing) {
            // tried again next round
        }
    }

    private void slotFailed(int slot, Throwable failure, boolean othersAnswered) {
        if (slotFailingSince.putIfAbsent(slot, System.currentTimeMillis()) == null && othersAnswered) {
            LOG.warn("cannot claim from slot {} (the other slots are dispatched; what this claim may have leased is given back before"
                    + " the slot is claimed from again): {}", slot, Failures.rootMessage(failure));
        }
    }

    private void answered(int slot, int slots) {
        Long failingSince = slotFailingSince.remove(slot);
        if (failingSince != null && slots > 1) {
            LOG.info("slot {} answers again after {} ms", slot, System.currentTimeMillis() - failingSince);
        }
    }
}
