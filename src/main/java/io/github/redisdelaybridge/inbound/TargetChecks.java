package io.github.redisdelaybridge.inbound;

import io.github.redisdelaybridge.message.BoundedTextCache;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.Target;
import io.github.redisdelaybridge.outbound.TargetPolicy;

/**
 * The verdict on a target text named by inbound messages (parsed, its broker enabled here, allowed and not an inbound
 * channel), remembered per text: producers name a handful of targets, and each verdict takes regular expressions (the
 * target syntax, every allow-list and inbound pattern) that would otherwise run again for every message. The verdict
 * depends only on the text and this instance's settings, which do not change while it runs. The texts are producers' to
 * choose, so the verdicts are bounded in bytes as well as in number ({@link BoundedTextCache}), and a rejection quotes the
 * text abbreviated.
 */
final class TargetChecks {

    /** Distinct texts remembered at most; the memory starts again past it. */
    static final int MAX_REMEMBERED = 10_000;
    /** Bytes the remembered texts and verdicts hold at most; the memory starts again past it. */
    static final long MAX_REMEMBERED_BYTES = 2L << 20;

    /** Either the target or why it is refused (a Rejection carries no stack trace: the same one can be thrown again). */
    private record Verdict(Target target, Rejection rejection) {

        /** Heap the verdict holds: the record, the target's or the rejection's object and its text. */
        long bytes() {
            return 64 + (target != null ? BoundedTextCache.stringBytes(target.uri()) : BoundedTextCache.stringBytes(rejection.detail()));
        }
    }

    private final TargetPolicy policy;
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
        return verdict.target();
    }

    /** Bytes the remembered verdicts hold now. */
    long rememberedBytes() {
        return verdicts.bytes();
    }

    private Verdict decide(String text) {
        Target target;
        try {
            target = Target.parse(text);
        } catch (IllegalArgumentException e) {
            return new Verdict(null, new Rejection(DeadLetterReason.INVALID_TARGET, e.getMessage()));
        }
        String unsupported = policy.whyUnsupported(target);
        if (unsupported != null) {
            return new Verdict(null, new Rejection(DeadLetterReason.INVALID_TARGET, unsupported));
        }
        String forbidden = policy.whyForbidden(target);
        if (forbidden != null) {
            return new Verdict(null, new Rejection(DeadLetterReason.FORBIDDEN_TARGET, forbidden));
        }
        return new Verdict(target, null);
    }
}
