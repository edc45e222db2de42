package io.github.redisdelaybridge.outbound;

import io.github.redisdelaybridge.message.Target;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The configured target patterns, in the order of {@code bridge.targets.limits}: a target is governed by the first pattern
 * that matches it, and by none when none does. The answer is remembered per target (bounded: past
 * {@value #REMEMBERED} targets the memory starts over), so a claimed batch costs a map lookup per target, not a glob scan.
 */
public final class TargetLimits {

    private static final int REMEMBERED = 10_000;
    private static final TargetLimit NONE = new TargetLimit("", "", 0, 0, 0);

    private final List<TargetLimit> limits;
    private final List<Glob> globs;
    private final Map<Target, TargetLimit> byTarget = new ConcurrentHashMap<>();

    public TargetLimits(List<TargetLimit> limits) {
        this.limits = List.copyOf(limits);
        this.globs = limits.stream().map(limit -> new Glob(limit.pattern())).toList();
    }

    public static TargetLimits none() {
        return new TargetLimits(List.of());
    }

    public List<TargetLimit> all() {
        return limits;
    }

    /** The first configured pattern that matches the target, or null. */
    public TargetLimit of(Target target) {
        if (limits.isEmpty()) {
            return null;
        }
        TargetLimit limit = byTarget.get(target);
        if (limit == null) {
            if (byTarget.size() >= REMEMBERED) {
                byTarget.clear();
            }
            limit = NONE;
            for (int i = 0; i < globs.size(); i++) {
                if (globs.get(i).matches(target.uri())) {
                    limit = limits.get(i);
                    break;
                }
            }
            byTarget.put(target, limit);
        }
        return limit == NONE ? null : limit;
    }

    /** The rate limit (messages per second) of the first pattern that matches the target's text, 0 when none sets one. */
    public int rateOf(String target) {
        for (int i = 0; i < globs.size(); i++) {
            if (globs.get(i).matches(target)) {
                return limits.get(i).ratePerSecond();
            }
        }
        return 0;
    }
}
