package io.github.redisdelaybridge.store.parking;

import java.util.List;

/** Every target's parking state, read at {@code redisNow} (epoch ms, Redis's clock). */
public record TargetStates(long redisNow, List<TargetState> states) {
}
