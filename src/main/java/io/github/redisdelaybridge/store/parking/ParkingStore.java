package io.github.redisdelaybridge.store.parking;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The store as parking uses it: the targets' parking states shared by every instance ({@code changeTargetState.lua},
 * {@code readTargetStates.lua}), the per-slot sets that make claims park a target's messages ({@code setTargetParked.lua};
 * claims do the parking, {@code claim.lua}), the moves of parked messages back to the due set ({@code returnParked.lua},
 * {@code takeParkedOut.lua}), their counts ({@code countParked.lua}) and the turn to do that work
 * ({@code takeParkingTurn.lua}).
 */
public final class ParkingStore {

    /** Messages one script call moves at most. */
    public static final int MESSAGES_PER_CALL = 500;

    private final ScriptRunner runner;
    private final Keys keys;

    public ParkingStore(ScriptRunner runner, Keys keys) {
        this.runner = runner;
        this.keys = keys;
    }

    public int slotCount() {
        return keys.slotCount();
    }

    /** Every target that has a parking state, with Redis's clock. */
    public CompletableFuture<TargetStates> states() {
        return runner.run(ReadTargetStatesScript.call(keys));
    }

    /**
     * Writes a target's state ({@code next}; null deletes it) if its current one is of the kinds {@code from} (or it has
     * none, when {@code fromNone}). Completes with whether it was written.
     */
    public CompletableFuture<Boolean> changeState(String target, TargetState next, Set<TargetState.Kind> from, boolean fromNone) {
        return runner.run(ChangeTargetStateScript.call(keys, target, next, from, fromNone));
    }

    /** Makes every slot's claims park the target's messages, or take them again; completes once every slot has it. */
    public CompletableFuture<Void> parkInEverySlot(String target, boolean parked) {
        List<CompletableFuture<Long>> writes = new ArrayList<>(keys.slotCount());
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            writes.add(runner.run(SetTargetParkedScript.call(keys, slot, target, parked)));
        }
        return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    }

    /** Returns up to {@code max} of the target's parked messages of one slot to the due set, at their due times. */
    public CompletableFuture<ParkedMoved> returnParked(int slot, String target, int max) {
        return runner.run(ReturnParkedScript.call(keys, slot, target, Math.min(max, MESSAGES_PER_CALL)));
    }

    /**
     * Makes up to {@code max} of the target's parked messages of one slot that are due before {@code dueBefore} (null: any)
     * due at once, exempt from parking for one claim, oldest first.
     */
    public CompletableFuture<ParkedMoved> takeOut(int slot, String target, int max, Long dueBefore) {
        return runner.run(TakeParkedOutScript.call(keys, slot, target, Math.min(max, MESSAGES_PER_CALL), dueBefore));
    }

    /** How many messages are parked over every slot, in all and for each of {@code targets}. */
    public CompletableFuture<ParkedCounts> count(List<String> targets) {
        List<CompletableFuture<CountParkedScript.SlotCounts>> slots = new ArrayList<>(keys.slotCount());
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            slots.add(runner.run(CountParkedScript.call(keys, slot, targets)));
        }
        return CompletableFuture.allOf(slots.toArray(CompletableFuture[]::new)).thenApply(done -> {
            long parked = 0;
            long[] perTarget = new long[targets.size()];
            for (CompletableFuture<CountParkedScript.SlotCounts> slot : slots) {
                CountParkedScript.SlotCounts counts = slot.join();
                parked += counts.parked();
                for (int i = 0; i < perTarget.length; i++) {
                    perTarget[i] += counts.indexed().get(i);
                }
            }
            return new ParkedCounts(parked, targets, perTarget);
        });
    }

    /** Takes or keeps the turn to do the parked targets' work; completes with whether {@code callerId} holds it. */
    public CompletableFuture<Boolean> takeTurn(String callerId, long ttlMs) {
        return runner.run(TakeParkingTurnScript.call(keys, callerId, ttlMs));
    }
}
