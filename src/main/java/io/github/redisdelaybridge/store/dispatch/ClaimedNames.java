package io.github.redisdelaybridge.store.dispatch;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.form.StandInIds;
import io.github.redisdelaybridge.store.form.StoredForms;
import io.github.redisdelaybridge.store.script.ScriptCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
 * itself: the dispatcher dead-letters it with the reason. A claim reads its names from its own map, filled from the copy
 * and the fetch, since the copy may start again (it is bounded) while the claim is read.
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
        int tag = claim.namesTag();
        Map<Long, byte[]> known = new HashMap<>();
        Set<Long> missing = new LinkedHashSet<>();
        for (ClaimScript.StoredMessage message : claim.messages()) {
            StoredForms.codesOfMember(message.member(), tag, code -> look(names, tag, code, known, missing));
            StoredForms.codesOfPayload(message.storedEnvelope(), tag, code -> look(names, tag, code, known, missing));
        }
        if (missing.isEmpty()) {
            return CompletableFuture.completedFuture(batchOf(slot, claim, known));
        }
        return run.apply(ResolveNamesScript.call(keys, slot, List.copyOf(missing))).thenApply(resolved -> {
            names.learn(resolved.tag(), resolved.names());
            if (resolved.tag() == tag) {
                known.putAll(resolved.names());
            }
            return batchOf(slot, claim, known);
        });
    }

    /** Puts the code's name from the copy into {@code known}, or the code into {@code missing}. */
    private static void look(SlotNames names, int tag, long code, Map<Long, byte[]> known, Set<Long> missing) {
        if (known.containsKey(code) || missing.contains(code)) {
            return;
        }
        byte[] name = names.nameOf(tag, code);
        if (name != null) {
            known.put(code, name);
        } else {
            missing.add(code);
        }
    }

    private ClaimedBatch batchOf(int slot, ClaimScript.StoredClaim claim, Map<Long, byte[]> known) {
        int tag = claim.namesTag();
        LongFunction<byte[]> nameOf = known::get;
        List<ClaimedMessage> messages = new ArrayList<>(claim.messages().size());
        for (ClaimScript.StoredMessage message : claim.messages()) {
            String id = StoredForms.idOf(message.member(), tag, nameOf);
            byte[] envelope = message.storedEnvelope() == null ? null : StoredForms.expand(message.storedEnvelope(), tag, nameOf);
            messages.add(new ClaimedMessage(slot, id == null ? StandInIds.standIn(message.member(), keys, slot) : id, message.member(),
                    id != null, message.dueAt(), message.attempts(), envelope, claim.leaseDeadline(),
                    message.originalDueAt() < 0 ? message.dueAt() : message.originalDueAt()));
        }
        return new ClaimedBatch(claim.redisNow(), claim.nextDue(), messages);
    }
}
