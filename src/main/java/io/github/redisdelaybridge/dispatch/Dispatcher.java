package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.dispatch.parking.ParkedTargets;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.metrics.DispatchLoopState;
import io.github.redisdelaybridge.outbound.TargetLimits;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dispatch loop: moves due messages from Redis to their targets. Claim (under a lease, {@link DueMessageClaimer})
 * -> publish -> broker acknowledgement -> acknowledge in Redis ({@link PublishAndSettle}); a failed publish is
 * retried with backoff or dead-lettered ({@link RetryOrDeadLetter}). Nothing leaves Redis before a broker has it.
 *
 * <p>The dispatch timer route calls {@link #dispatchDueMessages()} back to back. One call is a cycle of
 * at most {@code idlePollMs}: it claims and hands over everything due, then sleeps until the next due
 * time that the claim script reported (or until the inbound side stores something earlier, {@link WakeSignal}),
 * so lateness does not depend on a polling period. Up to {@code maxInFlight} messages are on their way at once.
 *
 * <p>It runs {@code claimAheadMs} ahead of the due times: it wakes that long before the next due time and claims what
 * falls due within that time, and the publishing lanes hold those messages until they are due ({@link ReleaseClock}).
 * Waking, the claim's round trip and the hand-over to a lane then happen before a message is due: when the CPU is busy,
 * each of those waits for a core (tens of milliseconds on a small, busy machine), and only the lane's own wake-up is left
 * between the due time and the publish.
 */
public final class Dispatcher implements DispatchWakeup, DispatchLoopState, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
    /** How long the loop waits for room when {@code maxInFlight} messages are on their way. */
    private static final long ROOM_WAIT_MS = 10;

    private final DispatchSettings settings;
    private final BooleanSupplier stopping;
    private final WakeSignal wakeSignal = new WakeSignal();
    private final DueMessageClaimer claimer;
    private final ReleaseClock releaseClock = new ReleaseClock();
    private final PublishAndSettle delivery;
    private final BridgeMetrics metrics;
    /** When the latest cycle ended (System.nanoTime); the creation time until the first one ends. */
    private volatile long lastCycleEndNanos = System.nanoTime();

    public Dispatcher(DispatchStore store, TargetPublisher publisher, DeadLetters deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, BooleanSupplier stopping, BridgeMetrics metrics) {
        this(store, publisher, deadLetters, retryPolicy, settings, stopping, metrics, "");
    }

    /** As above, for a bridge whose instance id is {@code instanceId}: its claims are recorded as this instance's. */
    public Dispatcher(DispatchStore store, TargetPublisher publisher, DeadLetters deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, BooleanSupplier stopping, BridgeMetrics metrics, String instanceId) {
        this(store, publisher, deadLetters, retryPolicy, settings, TargetLimits.none(), stopping, metrics, instanceId);
    }

    /** As above, with the configured target patterns' rate limits, in-flight caps and maximum lateness ({@code limits}). */
    public Dispatcher(DispatchStore store, TargetPublisher publisher, DeadLetters deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, TargetLimits limits, BooleanSupplier stopping, BridgeMetrics metrics, String instanceId) {
        this(store, publisher, deadLetters, retryPolicy, settings, limits, ParkedTargets.none(), stopping, metrics, instanceId);
    }

    /** As above, parking the targets that keep failing or are paused ({@code parked}). */
    public Dispatcher(DispatchStore store, TargetPublisher publisher, DeadLetters deadLetters, RetryPolicy retryPolicy,
                      DispatchSettings settings, TargetLimits limits, ParkedTargets parked, BooleanSupplier stopping, BridgeMetrics metrics,
                      String instanceId) {
        this.settings = settings;
        this.stopping = stopping;
        this.claimer = new DueMessageClaimer(store, settings, releaseClock, instanceId);
        this.delivery = new PublishAndSettle(store, publisher, new RetryOrDeadLetter(store, deadLetters, retryPolicy, parked, metrics),
                settings.publishTimeoutMs(), settings.maxInFlightPerTarget(), limits, parked, settings.redisTimeoutMs(), releaseClock, metrics,
                wakeSignal::roomFreed, wakeSignal::signal);
        this.metrics = metrics;
    }

    /** The id this dispatcher's claims are recorded under ({@code <instance id>/<random>}). */
    public String claimerId() {
        return claimer.claimerId();
    }

    /**
     * The longest a cycle takes while nothing is wrong with the loop itself: the idle sleep, a claim and a release that both
     * wait out the Redis timeout, and the longest backoff after a round in which Redis did not answer.
     */
    public static long longestHealthyCycleMs(DispatchSettings settings) {
        return settings.idlePollMs() + 2 * settings.redisTimeoutMs() + DueMessageClaimer.MAX_BACKOFF_MS;
    }

    /** How long ago the latest dispatch cycle ended (since this dispatcher was created, before the first one ends). */
    @Override
    public long millisSinceLastCycle() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastCycleEndNanos);
    }

    /** Camel bean method: one dispatch cycle. When the bridge is stopping, waits for in-flight messages to settle. */
    public void dispatchDueMessages() throws InterruptedException {
        long cycleEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.idlePollMs());
        try {
            while (!stopping.getAsBoolean()) {
                long remainingMs = TimeUnit.NANOSECONDS.toMillis(cycleEnd - System.nanoTime());
                int room = settings.maxInFlight() - delivery.inFlight();
                if (room <= 0) {
                    if (remainingMs <= 0) {
                        return;
                    }
                    wakeSignal.awaitRoom(Math.min(remainingMs, ROOM_WAIT_MS), () -> delivery.inFlight() >= settings.maxInFlight());
                    continue;
                }
                ClaimRound round = claimer.claim(Math.min(settings.batchSize(), room));
                if (round == null) {
                    Thread.sleep(claimer.backoffMs()); // Redis failed: capped backoff, not a busy loop
                    return;
                }
                if (!round.messages().isEmpty()) {
                    metrics.claimed(round.messages().size());
                    delivery.start(round.messages());
                    continue;
                }
                if (remainingMs <= 0) {
                    return;
                }
                long sleepMs = round.sleepMs(remainingMs, settings.claimAheadMs());
                wakeSignal.await(sleepMs, round.redisNow() + sleepMs);
            }
        } finally {
            if (stopping.getAsBoolean()) {
                awaitSettled(settings.publishTimeoutMs() + 2 * settings.redisTimeoutMs());
            }
            lastCycleEndNanos = System.nanoTime();
        }
    }

    @Override
    public void wakeIfEarlierThan(long dueAtEpochMs) {
        wakeSignal.wakeIfEarlierThan(dueAtEpochMs - settings.claimAheadMs()); // it plans when to claim, not when to publish
    }

    /** Messages published but not yet settled in Redis. */
    @Override
    public int inFlight() {
        return delivery.inFlight();
    }

    @Override
    public void close() {
        delivery.close();
    }

    private void awaitSettled(long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (delivery.inFlight() > 0 && System.currentTimeMillis() < deadline) {
            wakeSignal.awaitRoom(ROOM_WAIT_MS, () -> delivery.inFlight() > 0);
        }
        if (delivery.inFlight() > 0) {
            LOG.warn("stopping with {} messages unsettled; their leases expire and they are delivered again", delivery.inFlight());
        }
    }
}
