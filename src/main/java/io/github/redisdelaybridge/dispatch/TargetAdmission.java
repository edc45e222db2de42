package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Target;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of a claimed batch's messages their targets may take now ({@link TargetLoad}). A message its target has no room
 * for is not published: it fails with a {@link NotSentException}, so it goes back to Redis for later with no attempt
 * counted. Each target is asked once per batch, for all of its messages, keeping the cost per batch rather than per message.
 */
final class TargetAdmission {

    private final TargetLoad load;

    TargetAdmission(TargetLoad load) {
        this.load = load;
    }

    /** The readable messages (in the order given) their targets took; the rest are failed as not sent. */
    List<OutgoingMessage> admit(List<OutgoingMessage> readable, long now) {
        Map<Target, int[]> room = new HashMap<>(4);
        for (OutgoingMessage outgoing : readable) {
            room.computeIfAbsent(outgoing.target, t -> new int[1])[0]++;
        }
        room.forEach((target, count) -> count[0] = load.admit(target, count[0], now));
        List<OutgoingMessage> admitted = new ArrayList<>(readable.size());
        for (OutgoingMessage outgoing : readable) {
            int[] left = room.get(outgoing.target);
            if (left[0] == 0) {
                outgoing.outcome.completeExceptionally(refusal(outgoing.target, now));
                continue;
            }
            left[0]--;
            outgoing.admitted = true;
            admitted.add(outgoing);
        }
        return admitted;
    }

    private NotSentException refusal(Target target, long now) {
        long quietSince = load.quietSince(target, now);
        return new NotSentException("target " + target.uri() + " has " + load.inFlight(target)
                + " messages in flight and its broker has not answered for " + (now - quietSince) + " ms", quietSince);
    }
}
