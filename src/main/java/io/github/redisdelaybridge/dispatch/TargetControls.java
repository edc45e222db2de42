package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.outbound.TargetLimits;
import io.github.redisdelaybridge.store.dispatch.DeferClaimedScript.Deferral;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.dispatch.TokensTaken;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controls of the configured target patterns ({@link TargetLimits}) on a claimed batch, before anything is published:
 * <ul>
 *   <li>a message later than its pattern's {@code max-lateness-ms} (counted from its original due time) fails as
 *       {@link MessageExpiredException}, and is dead-lettered as {@code expired};</li>
 *   <li>a pattern with a rate asks its token bucket in Redis once for all of the batch's messages of its targets; those
 *       without a token go back to the due set (one call per slot per 100 messages), spread over the time their tokens
 *       will come, with their original due times kept. They leave the batch: a backlog over its rate sits in the due set
 *       at the times it may go, so a claim takes other targets' due messages before it.</li>
 * </ul>
 * Runs on the dispatch loop's thread only. When the bucket cannot be asked (Redis does not answer in time), the messages are published: the claim itself went
 * through, and a short excess of rate is better than holding messages on a failing call.
 */
final class TargetControls {

    private static final Logger LOG = LoggerFactory.getLogger(TargetControls.class);

    private final TargetLimits limits;
    private final DispatchStore store;
    private final long redisTimeoutMs;
    private final BridgeMetrics metrics;
    private final Runnable onReturnedToDueSet;
    /**
     * Per pattern: when the last token this instance has already promised to a message it gave back will come (epoch ms,
     * Redis's clock). The next batch's messages over the rate are spread after it, not over the same time again, so a
     * backlog given back batch by batch lines up at the rate instead of falling due many at once and going back again.
     */
    private final Map<String, Double> promisedUpTo = new HashMap<>();

    TargetControls(TargetLimits limits, DispatchStore store, long redisTimeoutMs, BridgeMetrics metrics, Runnable onReturnedToDueSet) {
        this.limits = limits;
        this.store = store;
        this.redisTimeoutMs = redisTimeoutMs;
        this.metrics = metrics;
        this.onReturnedToDueSet = onReturnedToDueSet;
        // each configured pattern's counters exist from the start, at 0, so that a dashboard's rate() has a series to read
        for (TargetLimit limit : limits.all()) {
            metrics.targetDelivered(limit.name(), 0);
            metrics.targetRateLimited(limit.name(), 0);
            metrics.targetExpired(limit.name(), 0);
        }
    }

    /**
     * The readable messages (in due order) that stay in the batch: those to publish, and those failed as expired. The ones over
     * their pattern's rate are given back to Redis and left out.
     */
    List<OutgoingMessage> apply(List<OutgoingMessage> readable, long now) {
        if (limits.all().isEmpty()) {
            return readable;
        }
        Map<TargetLimit, List<OutgoingMessage>> rated = new LinkedHashMap<>(4);
        List<OutgoingMessage> kept = new ArrayList<>(readable.size());
        for (OutgoingMessage outgoing : readable) {
            TargetLimit limit = limits.of(outgoing.target);
            outgoing.limit = limit;
            if (limit == null) {
                kept.add(outgoing);
                continue;
            }
            long lateness = now - outgoing.message.originalDueAt();
            if (limit.maxLatenessMs() > 0 && lateness > limit.maxLatenessMs()) {
                metrics.targetExpired(limit.name(), 1);
                outgoing.outcome.completeExceptionally(new MessageExpiredException(limit.name(), lateness, limit.maxLatenessMs()));
                kept.add(outgoing);
            } else if (limit.ratePerSecond() > 0) {
                rated.computeIfAbsent(limit, l -> new ArrayList<>()).add(outgoing);
            } else {
                kept.add(outgoing);
            }
        }
        if (rated.isEmpty()) {
            return kept;
        }
        Map<Integer, List<Deferral>> deferredBySlot = new TreeMap<>();
        rated.forEach((limit, messages) -> {
            TokensTaken taken = taken(limit, messages.size(), now);
            int granted = Math.max(0, Math.min(messages.size(), taken.granted()));
            kept.addAll(messages.subList(0, granted));
            List<OutgoingMessage> over = messages.subList(granted, messages.size());
            if (over.isEmpty()) {
                return;
            }
            // one token every 1000 / rate ms: the i-th message over the limit is due when the i-th token not yet promised comes,
            // and never before its own due time
            double msPerToken = 1000.0 / limit.ratePerSecond();
            long redisNow = taken.redisNow();
            double from = Math.max(promisedUpTo.getOrDefault(limit.name(), 0.0), redisNow);
            for (int i = 0; i < over.size(); i++) {
                OutgoingMessage outgoing = over.get(i);
                long delayMs = Math.max((long) Math.ceil(from + (i + 1) * msPerToken - redisNow), outgoing.message.dueAt() - redisNow);
                deferredBySlot.computeIfAbsent(outgoing.message.slot(), s -> new ArrayList<>()).add(new Deferral(outgoing.message, delayMs));
            }
            promisedUpTo.put(limit.name(), from + over.size() * msPerToken);
            metrics.targetRateLimited(limit.name(), over.size());
        });
        deferredBySlot.forEach((slot, deferrals) -> store.defer(slot, deferrals).whenComplete((given, failure) -> {
            if (failure != null) {
                // they stay in flight in Redis: their leases expire and they are delivered later (at-least-once)
                LOG.warn("could not give {} messages over their target's rate limit back to Redis; they come back when their lease expires: {}",
                        deferrals.size(), Failures.rootMessage(failure));
            }
            onReturnedToDueSet.run();
        }));
        kept.sort((a, b) -> Long.compare(a.message.dueAt(), b.message.dueAt()));
        return kept;
    }

    /** What the pattern's bucket allows of {@code asked} messages now; all of them when Redis cannot be asked. */
    private TokensTaken taken(TargetLimit limit, int asked, long now) {
        try {
            return store.takeTokens(limit.name(), limit.ratePerSecond(), asked).get(redisTimeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new TokensTaken(asked, now);
        } catch (Exception e) {
            LOG.warn("could not ask the token bucket of target pattern {} ({}); its {} messages are published without it: {}", limit.name(),
                    limit.pattern(), asked, Failures.rootMessage(e));
            return new TokensTaken(asked, now);
        }
    }
}
