package io.github.redisdelaybridge.store;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The bridge's copy of one slot's names hash (code -> name), for {@link ClaimedNames}. The hash is append-only (a
 * code is never reassigned), so a name once learnt stays right for as long as the hash keeps its tag. A different tag
 * means the hash was lost and recreated with other codes: names are kept per tag, so a claim is always read with the
 * names of the hash it saw, whatever other claims (read concurrently, on other connections) saw meanwhile.
 */
final class SlotNames {

    /** Codes kept at most per tag: the hash itself is bounded only by the number of distinct targets, so the copy starts again past it. */
    static final int MAX_NAMES = 100_000;
    /** Tags remembered: the current one and the one before (claims read just before the hash was replaced). */
    private static final int TAGS = 2;

    private final Map<Integer, Map<Long, byte[]>> byTag = new LinkedHashMap<>(4, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Map<Long, byte[]>> eldest) {
            return size() > TAGS;
        }
    };

    /** The name with that code in the hash of that tag, or null when the copy lacks it. */
    synchronized byte[] nameOf(int tag, long code) {
        Map<Long, byte[]> names = byTag.get(tag);
        return names == null ? null : names.get(code);
    }

    /** Names read from the hash while it had {@code tag}. */
    synchronized void learn(int tag, Map<Long, byte[]> learnt) {
        Map<Long, byte[]> names = byTag.computeIfAbsent(tag, t -> new HashMap<>());
        if (names.size() + learnt.size() > MAX_NAMES) {
            names.clear();
        }
        names.putAll(learnt);
    }
}
