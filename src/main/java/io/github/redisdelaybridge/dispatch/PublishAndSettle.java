package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.message.ParsedTargets;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetLimits;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import java.util.ArrayList;
import java.util.List;

/**
 * Takes claimed messages from the dispatch loop to Redis again: reads each ({@link OutgoingMessage}), fails one of a parked
 * target that waited too long ({@link ParkedTargets#tooOld}), admits it to its
 * target ({@link TargetAdmission}), publishes it when due ({@link DuePublishing}) and settles it once its broker answered
 * ({@link Settlement}).
 *
 * <p>Nothing here waits on a broker on the dispatch loop's thread: publish calls run on the lane of their broker,
 * settling on a thread of its own. A target that stops answering gets at most
 * {@code bridge.dispatch.max-in-flight-per-target} messages ({@link TargetLoad}). A message not sent
 * ({@link NotSentException}: its broker blocks publishing, its target is at that bound, or it waited for its lane past
 * the publish timeout) goes back to the due set for later, with no attempt counted ({@link GiveBack}).
 */
final class PublishAndSettle implements AutoCloseable {

    private final ParsedTargets targets = ParsedTargets.shared();
    private final ParkedTargets parked;
    private final TargetControls controls;
    private final TargetAdmission admission;
    private final DuePublishing publishing;
    private final Settlement settlement;

    /**
     * @param maxInFlightPerTarget messages a target that is not answering may have in flight ({@link TargetLoad})
     * @param onSettled            called after messages are settled (or failed to settle): room in flight has been freed
     * @param onReturnedToDueSet   called after a message went back to the due set (given back, or to be retried), maybe due
     *                             sooner than the dispatch loop plans to look again
     */
    PublishAndSettle(DispatchStore store, TargetPublisher publisher, RetryOrDeadLetter failures, long publishTimeoutMs, int maxInFlightPerTarget,
                     TargetLimits limits, ParkedTargets parked, long redisTimeoutMs, ReleaseClock releaseClock, BridgeMetrics metrics,
                     Runnable onSettled, Runnable onReturnedToDueSet) {
        TargetLoad load = new TargetLoad(maxInFlightPerTarget, limits);
        this.parked = parked;
        this.controls = new TargetControls(limits, store, redisTimeoutMs, metrics, onReturnedToDueSet);
        this.admission = new TargetAdmission(load);
        this.publishing = new DuePublishing(publisher, publishTimeoutMs, releaseClock, metrics);
        this.settlement = new Settlement(store, failures, new GiveBack(store, releaseClock, metrics), load, parked, publishTimeoutMs, metrics,
                onSettled, onReturnedToDueSet);
    }

    /** Messages handed over and not yet settled in Redis. */
    int inFlight() {
        return settlement.inFlight();
    }

    /**
     * Hands the messages (in due order) to their brokers' lanes and returns at once; each counts as in flight until settled.
     * Those not yet due are published when they are.
     */
    void start(List<ClaimedMessage> claimed) {
        long now = System.currentTimeMillis();
        List<OutgoingMessage> readable = new ArrayList<>(claimed.size());
        for (ClaimedMessage message : claimed) {
            OutgoingMessage outgoing = OutgoingMessage.of(message, targets);
            if (outgoing.readable() && parked.tooOld(outgoing.envelope.target(), message.originalDueAt(), now)) {
                TargetState state = parked.stateOf(outgoing.envelope.target());
                outgoing.outcome.completeExceptionally(new ParkedTooLongException(outgoing.envelope.target(), message.originalDueAt(),
                        state == null ? now : state.since(), parked.maxAgeMs(), parked.lastFailureOf(outgoing.envelope.target())));
                settlement.settleWhenAnswered(outgoing);
            } else if (outgoing.readable()) {
                readable.add(outgoing);
            } else { // it failed already, and is settled as such
                settlement.settleWhenAnswered(outgoing);
            }
        }
        List<OutgoingMessage> publishable = new ArrayList<>(readable.size());
        for (OutgoingMessage outgoing : controls.apply(readable, now)) { // those over their rate went back to Redis
            settlement.settleWhenAnswered(outgoing);
            if (!outgoing.outcome.isDone()) { // else it expired
                publishable.add(outgoing);
            }
        }
        publishing.publish(admission.admit(publishable, now), now);
    }

    @Override
    public void close() {
        publishing.close();
        settlement.close();
    }
}
