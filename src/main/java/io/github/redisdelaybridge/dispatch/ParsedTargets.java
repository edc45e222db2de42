package io.github.redisdelaybridge.dispatch;

import io.github.redisdelaybridge.message.Target;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link Target#parse} remembered per stored text: a claimed batch names a handful of targets a thousand times, and
 * parsing checks each name against a regular expression (a third of the dispatch loop's time in a drain). The same
 * text gives the same {@code Target} instance, so targets can be compared and looked up cheaply downstream. A text
 * that does not parse is not remembered: it throws each time, as {@code Target.parse} does.
 */
final class ParsedTargets {

    /** Distinct targets remembered at most; the memory starts again past it (targets are few in practice). */
    static final int MAX_REMEMBERED = 10_000;

    private final Map<String, Target> parsed = new ConcurrentHashMap<>();

    /** The target of that text form; throws IllegalArgumentException as {@link Target#parse} does. */
    Target parse(String text) {
        Target target = parsed.get(text);
        if (target != null) {
            return target;
        }
        target = Target.parse(text);
        if (parsed.size() >= MAX_REMEMBERED) {
            parsed.clear();
        }
        Target earlier = parsed.putIfAbsent(text, target);
        return earlier != null ? earlier : target;
    }
}
