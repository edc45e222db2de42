package io.github.redisdelaybridge.store.parking;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.script.Reply;
import io.github.redisdelaybridge.store.script.ScriptCall;
import io.github.redisdelaybridge.store.script.ScriptContract;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code readTargetStates.lua}: every target that has a parking state. Its Lua header is the contract; this class is its
 * Java side ({@link ScriptContract}).
 */
public final class ReadTargetStatesScript {

    /** {@code Returns: { now, target1, state1, target2, state2, ... }}. */
    enum Head { NOW }

    enum Entry { TARGET, STATE }

    static final ScriptContract<Reply<Head, Entry>> CONTRACT =
            ScriptContract.returningOnOwnKey(Reply.shape(Head.class, Entry.class), "readTargetStates", "target states");

    private ReadTargetStatesScript() {
    }

    public static ScriptCall<TargetStates> call(Keys keys) {
        return CONTRACT.callOnKey(keys.targetStates(), reply -> {
            List<TargetState> states = new ArrayList<>(reply.entries());
            for (int i = 0; i < reply.entries(); i++) {
                states.add(TargetState.of(reply.text(i, Entry.TARGET), reply.text(i, Entry.STATE)));
            }
            return new TargetStates(reply.number(Head.NOW), states);
        });
    }
}
