package io.github.redisdelaybridge.admin;

import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs an admin write and answers only once Redis confirmed it as durably as promised ({@link DurabilityBarrier}).
 * Not confirmed, the caller gets a 503 and may send the request again: cancel and reschedule are safe to repeat.
 */
final class DurableWrites {

    private final DurabilityBarrier barrier;
    private final long redisTimeoutMs;

    DurableWrites(DurabilityBarrier barrier, long redisTimeoutMs) {
        this.barrier = barrier;
        this.redisTimeoutMs = redisTimeoutMs;
    }

    <T> T write(int slot, Supplier<CompletableFuture<T>> write) {
        return write(List.of(slot), redisTimeoutMs, write);
    }

    /** A write over several slots, that may take up to {@code answerMs} (one script call after another). */
    <T> T write(List<Integer> slots, long answerMs, Supplier<CompletableFuture<T>> write) {
        DurabilityBarrier.Fence fence = StoreAnswers.await(barrier.open(slots), redisTimeoutMs);
        T answer = StoreAnswers.await(write.get(), answerMs);
        if (!StoreAnswers.await(fence.confirm(), redisTimeoutMs + barrier.settings().waitTimeoutMs())) {
            throw new ApiException(503, "the connection to Redis was re-established during the change, so it is not known whether it"
                    + " was kept: send the request again");
        }
        return answer;
    }
}
