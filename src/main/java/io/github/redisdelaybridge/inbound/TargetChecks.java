package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.BoundedTextCache;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.ParsedTargets;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;

/**
 * The verdict on a target text named by inbound messages (parsed, its broker enabled here, allowed and not an inbound
 * channel), remembered per text: producers name a handful of targets, and each verdict scans the text against the target
 * syntax and every allow-list and inbound pattern, which would otherwise run again for every message. The verdict depends
 * only on the text and this instance's settings, which do not change while it runs. The parsed targets themselves live in
 * the process's one memory of them ({@link ParsedTargets#shared()}); this holds only the verdicts. The texts are
 * producers' to choose, so the verdicts are bounded in bytes as well as in number ({@link BoundedTextCache}), and a
 * rejection quotes an excerpt of the text.
 */
final class TargetChecks {

    /** Distinct texts remembered at most; the memory starts again past it. */
    static final int MAX_REMEMBERED = 10_000;
    /** Bytes the remembered texts and verdicts hold at most; the memory starts again past it. */
    static final long MAX_REMEMBERED_BYTES = 2L << 20;

    /** Accepted (no rejection), or why it is refused (a Rejection carries no stack trace: the same one can be thrown again). */
    private record Verdict(Rejection rejection) {

        static final Verdict ACCEPTED = new Verdict(null);

        /** Heap the verdict holds: the record, and the rejection's object and its text. */
        long bytes() {
            return rejection == null ? 0 : 64 + BoundedTextCache.stringBytes(rejection.detail());
        }
    }

    private final TargetPolicy policy;
    private final ParsedTargets targets = ParsedTargets.shared();
    private final BoundedTextCache<Verdict> verdicts = new BoundedTextCache<>(MAX_REMEMBERED, MAX_REMEMBERED_BYTES, Verdict::bytes);

    TargetChecks(TargetPolicy policy) {
        this.policy = policy;
    }

    /** The target the text names, or the rejection of a message naming it. */
    Target check(String text) throws Rejection {
        Verdict verdict = verdicts.get(text, this::decide);
        if (verdict.rejection() != null) {
            throw verdict.rejection();
        }
        return targets.parse(text);
    }

    private Verdict decide(String text) {
        Target target;
        try {
            target = targets.parse(text);
        } catch (IllegalArgumentException e) {
            return new Verdict(new Rejection(DeadLetterReason.INVALID_TARGET, e.getMessage()));
        }
        String unsupported = policy.whyUnsupported(target);
        if (unsupported != null) {
            return new Verdict(new Rejection(DeadLetterReason.INVALID_TARGET, unsupported));
        }
        String forbidden = policy.whyForbidden(target);
        if (forbidden != null) {
            return new Verdict(new Rejection(DeadLetterReason.FORBIDDEN_TARGET, forbidden));
        }
        return Verdict.ACCEPTED;
    }
}
