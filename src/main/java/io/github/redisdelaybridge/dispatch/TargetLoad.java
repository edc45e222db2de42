package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetLimit;
import io.github.redisdelaybridge.outbound.TargetLimits;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Messages in flight per target, bounded for targets that are not making progress, so that one slow or stuck
 * target cannot take all of {@code bridge.dispatch.max-in-flight} and stop the others.
 *
 * <p>A target may have up to {@code cap} messages in flight; beyond that it gets more only while its broker keeps
 * answering (an acknowledgement or a refusal within the last {@value #PROGRESS_WINDOW_MS} ms). A healthy busy
 * target is therefore bounded only by the global limit, while one whose broker has gone quiet holds at most
 * {@code cap}. A message refused admission is not published: the caller gives it back to Redis for later, without
 * counting an attempt ({@link #quietSince}: how long the target has been quiet, to size that wait). A target never
 * heard from is bounded until its first answer; a target is remembered for a while after its last message settled,
 * so that the next burst to a healthy target is not bounded again.
 *
 * <p>A configured target pattern with a {@code max-in-flight} of its own ({@link TargetLimits}) bounds all its targets
 * together at that count, always: answered or not, a publish counts until it is settled, so a target that fails fast counts too.
 *
 * <p>A claimed batch is admitted and released per target, a count at a time, not per message: in a drain a batch holds
 * thousands of messages for a handful of targets, and a map update per message would be a cost of its own.
 */
final class TargetLoad {

    static final long PROGRESS_WINDOW_MS = 1_000;
    /** Idle targets (nothing in flight) are forgotten after this long, once more than {@value #REMEMBERED} are known. */
    private static final long IDLE_MEMORY_MS = 60_000;
    private static final int REMEMBERED = 1_000;

    private static final class Load {
        int inFlight;
        /** When its in-flight count last rose from 0. */
        long busySince;
        volatile long lastAnsweredAt;

        Load(long now) {
            this.busySince = now;
        }
    }

    private final int cap;
    private final Map<Target, Load> loads = new ConcurrentHashMap<>();
    private final TargetLimits limits;
    /** Admitted and not yet settled, per configured pattern with a cap of its own: counted whether its broker answers or not. */
    private final Map<String, AtomicInteger> patternInFlight = new ConcurrentHashMap<>();

    TargetLoad(int cap) {
        this(cap, TargetLimits.none());
    }

    /** {@code limits}: patterns whose {@code max-in-flight} bounds their targets together, answering or not, failing fast too. */
    TargetLoad(int cap, TargetLimits limits) {
        this.cap = Math.max(1, cap);
        this.limits = limits;
    }

    /**
     * Counts up to {@code count} messages in flight for the target and returns how many it took: all of them while the target is
     * under its bound or its broker is answering, else as many as fit under the bound (maybe none).
     */
    int admit(Target target, int count, long now) {
        if (loads.size() > REMEMBERED) {
            loads.entrySet().removeIf(e -> e.getValue().inFlight == 0 && now - e.getValue().lastAnsweredAt > IDLE_MEMORY_MS);
        }
        int[] admitted = {0};
        loads.compute(target, (t, load) -> {
            Load current = load == null ? new Load(now) : load;
            if (current.inFlight == 0) {
                current.busySince = now;
            }
            admitted[0] = now - current.lastAnsweredAt <= PROGRESS_WINDOW_MS ? count : Math.max(0, Math.min(count, cap - current.inFlight));
            current.inFlight += admitted[0];
            return current;
        });
        TargetLimit limit = limits.of(target);
        if (limit != null && limit.maxInFlight() > 0 && admitted[0] > 0) {
            AtomicInteger patternCount = patternInFlight.computeIfAbsent(limit.name(), n -> new AtomicInteger());
            int room = Math.max(0, limit.maxInFlight() - patternCount.get());
            if (admitted[0] > room) {
                int refused = admitted[0] - room;
                loads.computeIfPresent(target, (t, load) -> {
                    load.inFlight -= refused;
                    return load;
                });
                admitted[0] = room;
            }
            patternCount.addAndGet(admitted[0]);
        }
        return admitted[0];
    }

    /** Since when the target has had messages in flight and no answer from its broker (epoch ms); now if it is not quiet. */
    long quietSince(Target target, long now) {
        Load load = loads.get(target);
        if (load == null) {
            return now;
        }
        return Math.max(load.busySince, load.lastAnsweredAt);
    }

    /** The target's broker answered a publish (acknowledged or refused it). */
    void answered(Target target, long now) {
        Load load = loads.get(target);
        if (load != null && now > load.lastAnsweredAt) {
            load.lastAnsweredAt = now;
        }
    }

    /** {@code count} admitted messages of the target were settled: they no longer count. */
    void release(Target target, int count) {
        TargetLimit limit = limits.of(target);
        if (limit != null && limit.maxInFlight() > 0) {
            AtomicInteger patternCount = patternInFlight.get(limit.name());
            if (patternCount != null) {
                patternCount.updateAndGet(n -> Math.max(0, n - count));
            }
        }
        loads.computeIfPresent(target, (t, load) -> {
            load.inFlight = Math.max(0, load.inFlight - count);
            return load;
        });
    }

    int inFlight(Target target) {
        Load load = loads.get(target);
        return load == null ? 0 : load.inFlight;
    }
}
