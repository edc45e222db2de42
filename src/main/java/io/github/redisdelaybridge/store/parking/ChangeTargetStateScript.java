package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.store.script.Argv.text;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code changeTargetState.lua}: sets or deletes a target's parking state if its current one is of the kinds given. Its
 * Lua header is the contract; this class is its Java side ({@link ScriptContract}).
 */
public final class ChangeTargetStateScript {

    /** {@code Returns: { changed, previous }}. */
    enum Head { CHANGED, PREVIOUS }

    static final ScriptContract<Reply<Head, Reply.None>> CONTRACT =
            ScriptContract.returningOnOwnKey(Reply.shape(Head.class), "changeTargetState", "target states");

    private ChangeTargetStateScript() {
    }

    /**
     * ARGV: the target, its new state (null: delete it), the kinds it may have now ({@code fromNone}: or no state at all).
     */
    public static ScriptCall<Boolean> call(Keys keys, String target, TargetState next, Set<TargetState.Kind> from, boolean fromNone) {
        String kinds = from.stream().map(TargetState.Kind::word).collect(Collectors.joining(" ")) + (fromNone ? " none" : "");
        return CONTRACT.callOnKey(keys.targetStates(), reply -> reply.number(Head.CHANGED) == 1, text(target),
                text(next == null ? "" : next.stored()), text(kinds.strip()));
    }
}
