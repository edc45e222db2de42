package io.github.redisdelaybridge.dispatch.parking;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.parking.ParkedCounts;
import io.github.redisdelaybridge.store.parking.ParkedMoved;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.parking.TargetState.Kind;
import io.github.redisdelaybridge.store.parking.TargetStates;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parked targets' work, on a timer ({@code routes/dispatch.yaml}): every instance reads the targets' states and counts
 * their parked messages; the one that holds the parking turn ({@code takeParkingTurn.lua}) also
 * <ul>
 *   <li>probes each parked target when its time comes: its oldest parked message that is due is made due at once, exempt from parking
 *       ({@code takeParkedOut.lua}), and the dispatch loop sends it like any other; delivered, the target returns
 *       ({@link ParkedTargets#delivered}); failed, it is parked again, and the next probe waits twice as long;</li>
 *   <li>once a target has been parked longer than {@code bridge.retry.max-age-ms}, takes out the messages that have been due
 *       longer than that, 500 per call, for the dispatch loop to dead-letter as {@code publish-failed}
 *       ({@link ParkedTargets#tooOld});</li>
 *   <li>returns a returning target's parked messages to the due set at their due times, at
 *       its pattern's rate limit when it has one, else {@code bridge.parking.return-rate-per-second}, and ends its state once every
 *       slot's index is empty.</li>
 * </ul>
 * So a dead target costs one claim per message, however large its backlog, and its backlog comes back at a rate the other
 * targets' claims can take beside it.
 */
public final class ParkedTargetsWork {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedTargetsWork.class);
    /** Calls per slot and tick that take out expired messages at most (500 each). */
    private static final int EXPIRY_CALLS_PER_SLOT = 10;
    private static final long COUNT_EVERY_MS = 1_000;
    /**
     * How often the holder of the turn writes each target into every slot's parked targets again, or out of them: a change
     * of state writes them itself, and this repairs one that stopped halfway (the instance died, Redis failed) without 16
     * script calls per target every tick.
     */
    private static final long REASSERT_EVERY_MS = 5_000;

    private final ParkedTargets parked;
    private final ParkingStore store;
    private final ParkingSettings settings;
    private final ToIntFunction<String> rateLimitOf;
    private final String callerId;
    private final long redisTimeoutMs;
    private final long turnMs;
    /** Per returning target: messages it may still return now (a fraction carries over to the next tick). */
    private final Map<String, Double> returnBudget = new HashMap<>();
    private long lastRunNanos = System.nanoTime();
    private long lastCountMs;
    private long lastReassertMs;
    private int nextSlot;
    private volatile ParkedCounts counts = new ParkedCounts(0, List.of(), new long[0]);

    /**
     * @param rateLimitOf the rate limit of the pattern a target falls under (messages per second), 0 when it has none
     * @param callerId    this instance's id in the parking turn
     * @param intervalMs  how often the timer runs: the turn lasts a few of them
     */
    public ParkedTargetsWork(ParkedTargets parked, ToIntFunction<String> rateLimitOf, String callerId, long redisTimeoutMs, long intervalMs) {
        this.parked = parked;
        this.store = parked.store();
        this.settings = parked.settings();
        this.rateLimitOf = rateLimitOf;
        this.callerId = callerId;
        this.redisTimeoutMs = redisTimeoutMs;
        this.turnMs = Math.max(2_000, 5 * intervalMs);
    }

    /** Parked messages over every slot, as last counted (every second while any target has a state). */
    public long parkedMessages() {
        return counts.parked();
    }

    /** Targets of that kind, as last read. */
    public long targets(Kind kind) {
        return parked.states().stream().filter(s -> s.kind() == kind).count();
    }

    /** Camel bean method: one round of the work. */
    public void run() {
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastRunNanos);
        lastRunNanos = System.nanoTime();
        try {
            TargetStates read = await(parked.refresh());
            if (read.states().isEmpty()) {
                counts = new ParkedCounts(0, List.of(), new long[0]);
                returnBudget.clear();
                return;
            }
            countNowAndThen(read);
            if (!await(store.takeTurn(callerId, turnMs))) {
                return;
            }
            boolean reassert = System.currentTimeMillis() - lastReassertMs >= REASSERT_EVERY_MS;
            if (reassert) {
                lastReassertMs = System.currentTimeMillis();
            }
            for (TargetState state : read.states()) {
                if (reassert) {
                    await(store.parkInEverySlot(state.target(), state.parksMessages()));
                }
                switch (state.kind()) {
                    case PARKED -> {
                        expire(state, read.redisNow());
                        probe(state, read.redisNow());
                    }
                    case RETURNING -> returnBacklog(state, elapsedMs);
                    case PAUSED -> { } // nothing goes out: its messages wait parked until it is resumed
                }
            }
            returnBudget.keySet().retainAll(read.states().stream().filter(s -> s.kind() == Kind.RETURNING).map(TargetState::target).toList());
        } catch (Exception e) {
            LOG.debug("parked targets' work skipped this round: {}", Failures.rootMessage(e));
        }
    }

    private void countNowAndThen(TargetStates read) throws Exception {
        long now = System.currentTimeMillis();
        if (now - lastCountMs >= COUNT_EVERY_MS) {
            lastCountMs = now;
            counts = await(store.count(read.states().stream().map(TargetState::target).toList()));
        }
    }

    private void probe(TargetState state, long now) throws Exception {
        if (now < state.nextProbeAt()) {
            return;
        }
        long nextBackoff = Math.min(settings.maxProbeMs(), state.probeBackoffMs() * 2);
        TargetState next = new TargetState(state.target(), Kind.PARKED, state.since(), now + state.probeBackoffMs(), nextBackoff);
        if (!await(store.changeState(state.target(), next, EnumSet.of(Kind.PARKED), false))) {
            return;
        }
        int slots = store.slotCount();
        long left = 0;
        for (int i = 0; i < slots; i++) {
            int slot = (nextSlot + i) % slots;
            // only a message already due: a claim parks a parked target's messages ahead of their due time (claim.lua)
            ParkedMoved moved = await(store.takeOut(slot, state.target(), 1, now + 1));
            left += moved.left();
            if (moved.moved() > 0) {
                nextSlot = (slot + 1) % slots;
                LOG.info("probing parked target {} with one message (parked since {}; next probe in {} ms if this one fails)", state.target(),
                        Instant.ofEpochMilli(state.since()), state.probeBackoffMs());
                return;
            }
        }
        if (left == 0 && state.probeBackoffMs() >= settings.maxProbeMs()) {
            // nothing left to probe with for a while (its last messages may still be retried, not yet parked, just after it
            // was parked): the target returns, and is parked again if its next messages fail too
            if (await(store.changeState(state.target(), new TargetState(state.target(), Kind.RETURNING, now, 0, 0), EnumSet.of(Kind.PARKED), false))) {
                await(store.parkInEverySlot(state.target(), false));
                LOG.info("parked target {} has no parked message left to probe with; it is no longer parked", state.target());
            }
        }
    }

    private void expire(TargetState state, long now) throws Exception {
        if (now - state.since() <= settings.maxAgeMs()) {
            return;
        }
        long dueBefore = now - settings.maxAgeMs();
        long taken = 0;
        for (int slot = 0; slot < store.slotCount(); slot++) {
            for (int call = 0; call < EXPIRY_CALLS_PER_SLOT; call++) {
                ParkedMoved moved = await(store.takeOut(slot, state.target(), ParkingStore.MESSAGES_PER_CALL, dueBefore));
                taken += moved.moved();
                if (moved.moved() < ParkingStore.MESSAGES_PER_CALL) {
                    break;
                }
            }
        }
        if (taken > 0) {
            LOG.warn("{} messages of target {} have waited parked longer than bridge.retry.max-age-ms ({} ms); they are dead-lettered as"
                    + " publish-failed", taken, state.target(), settings.maxAgeMs());
        }
    }

    private void returnBacklog(TargetState state, long elapsedMs) throws Exception {
        String target = state.target();
        int limit = rateLimitOf.applyAsInt(target);
        double rate = limit > 0 ? limit : settings.returnRatePerSecond();
        double budget = Math.min(rate, returnBudget.getOrDefault(target, 0.0) + rate * elapsedMs / 1000.0);
        int slots = store.slotCount();
        boolean everySlotEmpty = true;
        int visited = 0;
        for (; visited < slots && budget >= 1; visited++) {
            int slot = (nextSlot + visited) % slots;
            // as many calls as the budget takes: one call of at most MESSAGES_PER_CALL per slot and tick would cap the
            // return at that many a tick (5,000 msg/s a slot at the route's 100 ms), whatever the rate set; each call reads
            // its entries off the index, so the calls end when the slot has none left
            ParkedMoved moved;
            do {
                moved = await(store.returnParked(slot, target, (int) Math.min(budget, ParkingStore.MESSAGES_PER_CALL)));
                budget -= moved.moved();
            } while (budget >= 1 && moved.left() > 0);
            everySlotEmpty &= moved.left() == 0;
        }
        nextSlot = (nextSlot + Math.max(1, visited)) % slots;
        returnBudget.put(target, budget);
        if (visited == slots && everySlotEmpty && backlogGone(target)
                && await(store.changeState(target, null, EnumSet.of(Kind.RETURNING), false))) {
            returnBudget.remove(target);
            LOG.info("target {} has every parked message back in the due set", target);
        }
    }

    /**
     * Whether the target's indexes stay empty once no slot parks it any more: a claim that ran before its slot stopped
     * parking the target may have parked a message after the indexes were read, and that one is returned here, so that
     * ending the state strands nothing.
     */
    private boolean backlogGone(String target) throws Exception {
        await(store.parkInEverySlot(target, false));
        long left = 0;
        for (int slot = 0; slot < store.slotCount(); slot++) {
            ParkedMoved moved;
            do {
                moved = await(store.returnParked(slot, target, ParkingStore.MESSAGES_PER_CALL));
            } while (moved.left() > 0);
            left += moved.left();
        }
        return left == 0;
    }

    private <T> T await(CompletableFuture<T> call) throws Exception {
        return call.get(redisTimeoutMs, TimeUnit.MILLISECONDS);
    }
}
