package io.github.redisdelaybridge.message;

/**
 * {@link Target#parse} remembered per text: a claimed batch or an inbound batch names a handful of targets a thousand
 * times, and parsing checks each name character by character. The same text gives the same {@code Target} instance, so
 * targets can be compared and looked up cheaply downstream. A text that does not parse is not remembered: it throws each
 * time, as {@code Target.parse} does. Texts are producers' to choose, so the memory is bounded in bytes as well as in
 * number ({@link BoundedTextCache}).
 *
 * <p>Parsing depends on the text alone, so one memory ({@link #shared()}) serves every caller in the process: inbound's
 * checks and the dispatch loop remember each target once, within one bound.
 */
public final class ParsedTargets {

    /** Distinct targets remembered at most; the memory starts again past it (targets are few in practice). */
    public static final int MAX_REMEMBERED = 10_000;
    /** Bytes the remembered texts and targets hold at most; the memory starts again past it. */
    public static final long MAX_REMEMBERED_BYTES = 2L << 20;

    private static final ParsedTargets SHARED = new ParsedTargets();

    /** A target holds its names (at most the text's length) and the record. */
    private final BoundedTextCache<Target> parsed =
            new BoundedTextCache<>(MAX_REMEMBERED, MAX_REMEMBERED_BYTES, target -> 64 + BoundedTextCache.stringBytes(target.uri()));

    /** A memory of its own: the process uses {@link #shared()}; a test starts from an empty one. */
    ParsedTargets() {
    }

    /** The process's one memory of parsed targets. */
    public static ParsedTargets shared() {
        return SHARED;
    }

    /** The target of that text form; throws IllegalArgumentException as {@link Target#parse} does. */
    public Target parse(String text) {
        return parsed.get(text, Target::parse);
    }
}
