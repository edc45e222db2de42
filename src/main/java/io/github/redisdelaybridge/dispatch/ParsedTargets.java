package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.BoundedTextCache;
import io.github.redisdelaybridge.message.Target;

/**
 * {@link Target#parse} remembered per stored text: a claimed batch names a handful of targets a thousand times, and
 * parsing checks each name against a regular expression (a third of the dispatch loop's time in a drain). The same
 * text gives the same {@code Target} instance, so targets can be compared and looked up cheaply downstream. A text
 * that does not parse is not remembered: it throws each time, as {@code Target.parse} does. Stored texts are producers'
 * (a stored envelope's target), so the memory is bounded in bytes as well as in number ({@link BoundedTextCache}).
 */
final class ParsedTargets {

    /** Distinct targets remembered at most; the memory starts again past it (targets are few in practice). */
    static final int MAX_REMEMBERED = 10_000;
    /** Bytes the remembered texts and targets hold at most; the memory starts again past it. */
    static final long MAX_REMEMBERED_BYTES = 2L << 20;

    /** A target holds its names (at most the text's length) and the record. */
    private final BoundedTextCache<Target> parsed =
            new BoundedTextCache<>(MAX_REMEMBERED, MAX_REMEMBERED_BYTES, target -> 64 + BoundedTextCache.stringBytes(target.uri()));

    /** The target of that text form; throws IllegalArgumentException as {@link Target#parse} does. */
    Target parse(String text) {
        return parsed.get(text, Target::parse);
    }
}
