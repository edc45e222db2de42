package io.github.redisdelaybridge.dispatch.parking;

import io.github.redisdelaybridge.message.Failures;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.parking.TargetState.Kind;
import io.github.redisdelaybridge.store.parking.TargetStates;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which targets are parked, paused or returning, as this instance last read it from Redis, and the changes of state every
 * instance may make: a target that failed {@code bridge.parking.failures-to-park} times in a row is parked; a parked
 * target that delivers a message (its probe) returns; an operator pauses and resumes. Parking a target writes its state,
 * then adds it to every slot's parked targets, from which on claims park its messages instead of leasing them
 * ({@code claim.lua}); returning takes it out of them first, then {@link ParkedTargetsWork} returns the backlog.
 *
 * <p>Called from the dispatch loop's and the settler's threads: the calls for a delivered or failed message cost a map
 * look-up unless the target's state changes.
 */
public final class ParkedTargets {

    private static final Logger LOG = LoggerFactory.getLogger(ParkedTargets.class);

    private final ParkingStore store;
    private final ParkingSettings settings;
    /** As last read ({@link #refresh}), with the changes this instance made since. */
    private volatile Map<String, TargetState> states = Map.of();
    /** Retriable failures in a row per target not parked, since its last delivery on this instance. */
    private final Map<String, AtomicInteger> failuresInARow = new ConcurrentHashMap<>();
    /** The latest failure this instance saw of each parked target, for the dead letters of its messages that waited too long. */
    private final Map<String, String> lastFailures = new ConcurrentHashMap<>();
    /** Targets whose change of state this instance has on its way: one at a time. */
    private final Set<String> changing = ConcurrentHashMap.newKeySet();

    public ParkedTargets(ParkingStore store, ParkingSettings settings) {
        this.store = store;
        this.settings = settings;
    }

    /** For a dispatcher without parking (tests of other concerns): no target is ever parked. */
    public static ParkedTargets none() {
        return new ParkedTargets(null, new ParkingSettings(0, 1, 1, 1, Long.MAX_VALUE));
    }

    ParkingSettings settings() {
        return settings;
    }

    ParkingStore store() {
        return store;
    }

    /** Reads every target's state from Redis again; completes with what it read. */
    public CompletableFuture<TargetStates> refresh() {
        return store.states().thenApply(read -> {
            states = read.states().stream().collect(Collectors.toUnmodifiableMap(TargetState::target, Function.identity()));
            return read;
        });
    }

    /** Every target that has a state, as last read. */
    public List<TargetState> states() {
        return List.copyOf(states.values());
    }

    /** The target's state as last read, or null. */
    public TargetState stateOf(String target) {
        return states.get(target);
    }

    /**
     * A publish to {@code target} failed ({@code failure}) and will be retried: counted, and the target parked once it failed
     * enough times in a row.
     */
    public void failed(String target, Throwable failure) {
        if (!settings.parksFailingTargets()) {
            return;
        }
        TargetState state = states.get(target);
        if (state != null && state.parksMessages()) {
            if (state.kind() == Kind.PARKED) {
                lastFailures.put(target, Failures.rootMessage(failure));
            }
            return;
        }
        int inARow = failuresInARow.computeIfAbsent(target, t -> new AtomicInteger()).incrementAndGet();
        if (inARow >= settings.failuresToPark()) {
            failuresInARow.remove(target);
            lastFailures.put(target, Failures.rootMessage(failure));
            long now = System.currentTimeMillis();
            change(target, new TargetState(target, Kind.PARKED, now, now + settings.firstProbeMs(), settings.firstProbeMs()),
                    EnumSet.of(Kind.RETURNING), true, true,
                    "parked target {} after {} publish failures in a row: its messages wait out of the claims' way, one is sent as a probe"
                            + " after {} ms (backoff doubling up to {} ms)", target, inARow, settings.firstProbeMs(), settings.maxProbeMs());
        }
    }

    /** A message of {@code target} was delivered: its failures in a row end, and a parked target returns. */
    public void delivered(String target) {
        if (!failuresInARow.isEmpty()) {
            failuresInARow.remove(target);
        }
        if (!lastFailures.isEmpty()) {
            lastFailures.remove(target);
        }
        TargetState state = states.get(target);
        if (state != null && state.kind() == Kind.PARKED) {
            change(target, new TargetState(target, Kind.RETURNING, System.currentTimeMillis(), 0, 0), EnumSet.of(Kind.PARKED), false, false,
                    "target {} answers again (parked since {}): its parked messages return to the due set at its return rate", target,
                    Instant.ofEpochMilli(state.since()));
        }
    }

    /**
     * Whether a message of {@code target}, due at {@code originalDueAt}, has waited too long to be tried: its target is parked
     * (not paused), and both it and its target's parking are older than {@code bridge.retry.max-age-ms}.
     */
    public boolean tooOld(String target, long originalDueAt, long now) {
        TargetState state = states.get(target);
        return state != null && state.kind() == Kind.PARKED && now - state.since() > settings.maxAgeMs()
                && now - originalDueAt > settings.maxAgeMs();
    }

    /** Pauses a target (parked or not): its messages are parked until it is resumed. Completes with whether its state changed. */
    public CompletableFuture<Boolean> pause(String target) {
        return change(target, new TargetState(target, Kind.PAUSED, System.currentTimeMillis(), 0, 0), EnumSet.of(Kind.PARKED, Kind.RETURNING),
                true, true, "paused target {}: its messages are parked until it is resumed", target);
    }

    /** Resumes a paused target: its parked messages return to the due set. Completes with whether it was paused. */
    public CompletableFuture<Boolean> resume(String target) {
        return change(target, new TargetState(target, Kind.RETURNING, System.currentTimeMillis(), 0, 0), EnumSet.of(Kind.PAUSED), false,
                false, "resumed target {}: its parked messages return to the due set at its return rate", target);
    }

    /**
     * Writes the target's state if its current one is of the kinds {@code from}, then adds it to every slot's parked targets
     * ({@code parks}) or takes it out; completes with whether the state changed. A failure or delivery of a target this instance
     * is already changing changes nothing (the messages of a failing target fail many at once); a pause or resume always asks
     * Redis, whose compare-and-set decides.
     */
    private CompletableFuture<Boolean> change(String target, TargetState next, Set<Kind> from, boolean fromNone, boolean parks,
                                              String logLine, Object... logArguments) {
        boolean operator = next.kind() == Kind.PAUSED || next.kind() == Kind.RETURNING && from.contains(Kind.PAUSED);
        boolean marked = changing.add(target);
        if (!marked && !operator) {
            return CompletableFuture.completedFuture(false);
        }
        return store.changeState(target, next, from, fromNone).thenCompose(changed -> {
            if (!changed) {
                return CompletableFuture.completedFuture(false);
            }
            Map<String, TargetState> updated = new ConcurrentHashMap<>(states);
            updated.put(target, next);
            states = Map.copyOf(updated);
            LOG.warn(logLine, logArguments);
            return store.parkInEverySlot(target, parks).thenApply(done -> true);
        }).whenComplete((changed, failure) -> {
            if (marked) {
                changing.remove(target);
            }
            if (failure != null) {
                LOG.warn("could not change the parking state of target {} (tried again on its next failure, probe or request): {}", target,
                        Failures.rootMessage(failure));
            }
        });
    }

    /** The latest failure this instance saw of a parked target, or null. */
    public String lastFailureOf(String target) {
        return lastFailures.get(target);
    }

    /** {@code bridge.retry.max-age-ms}, which {@link #tooOld} holds parked messages to. */
    public long maxAgeMs() {
        return settings.maxAgeMs();
    }
}
