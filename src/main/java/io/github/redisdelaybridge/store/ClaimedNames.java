package io.github.redisdelaybridge.store;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Turns a claim's answer ({@link ClaimScript.StoredClaim}: members and payloads as Redis stores them) into claimed
 * messages with their ids and wire-form envelopes ({@link StoredForms}), with each slot's copy of its names hash
 * ({@link SlotNames}). Codes the copy lacks are fetched first, in one call ({@code resolveNames.lua}); a member or
 * payload whose codes the hash does not have either is handed on unresolved, as claim.lua did when it expanded them
 * itself: the dispatcher dead-letters it with the reason.
 */
final class ClaimedNames {

    private final Keys keys;
    private final Function<ScriptCall<ResolveNamesScript.Resolved>, CompletableFuture<ResolveNamesScript.Resolved>> run;
    private final ConcurrentHashMap<Integer, SlotNames> slots = new ConcurrentHashMap<>();

    /** @param run how the store runs a script call */
    ClaimedNames(Keys keys, Function<ScriptCall<ResolveNamesScript.Resolved>, CompletableFuture<ResolveNamesScript.Resolved>> run) {
        this.keys = keys;
        this.run = run;
    }

    CompletableFuture<ClaimedBatch> resolve(int slot, ClaimScript.StoredClaim claim) {
        SlotNames names = slots.computeIfAbsent(slot, s -> new SlotNames());
        Set<Long> missing = new LinkedHashSet<>();
        for (ClaimScript.StoredMessage message : claim.messages()) {
            StoredForms.codesOfMember(message.member(), claim.namesTag(), code -> addIfMissing(names, claim.namesTag(), code, missing));
            StoredForms.codesOfPayload(message.storedEnvelope(), claim.namesTag(), code -> addIfMissing(names, claim.namesTag(), code, missing));
        }
        if (missing.isEmpty()) {
            return CompletableFuture.completedFuture(batchOf(slot, claim, names));
        }
        return run.apply(ResolveNamesScript.call(keys, slot, List.copyOf(missing))).thenApply(resolved -> {
            names.learn(resolved.tag(), resolved.names());
            return batchOf(slot, claim, names);
        });
    }

    private static void addIfMissing(SlotNames names, int tag, long code, Set<Long> missing) {
        if (names.nameOf(tag, code) == null) {
            missing.add(code);
        }
    }

    private ClaimedBatch batchOf(int slot, ClaimScript.StoredClaim claim, SlotNames names) {
        int tag = claim.namesTag();
        LongFunction<byte[]> nameOf = code -> names.nameOf(tag, code);
        List<ClaimedMessage> messages = new ArrayList<>(claim.messages().size());
        for (ClaimScript.StoredMessage message : claim.messages()) {
            String id = StoredForms.idOf(message.member(), tag, nameOf);
            byte[] envelope = message.storedEnvelope() == null ? null : StoredForms.expand(message.storedEnvelope(), tag, nameOf);
            messages.add(new ClaimedMessage(slot, id == null ? StandInIds.standIn(message.member(), keys, slot) : id, message.member(),
                    id != null, message.dueAt(), message.attempts(), envelope, claim.leaseDeadline()));
        }
        return new ClaimedBatch(claim.redisNow(), claim.nextDue(), messages);
    }
}
