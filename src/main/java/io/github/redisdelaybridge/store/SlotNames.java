package io.github.redisdelaybridge.store;

import java.util.HashMap;
import java.util.Map;

/**
 * The bridge's copy of one slot's names hash (code -> name), for {@link ClaimedNames}. The hash is append-only (a
 * code is never reassigned), so a name once learnt stays right for as long as the hash keeps its tag; a different tag
 * means the hash was lost and recreated with other codes, and the copy starts again.
 */
final class SlotNames {

    /** Codes kept at most: the hash itself is bounded only by the number of distinct targets, so the copy starts again past it. */
    static final int MAX_NAMES = 100_000;
    private static final int UNKNOWN_TAG = -2;

    private final Map<Long, byte[]> names = new HashMap<>();
    private int tag = UNKNOWN_TAG;

    /** The hash's tag as a script just read it (-1: none); a new one forgets everything learnt under the previous. */
    synchronized void observeTag(int current) {
        if (current != tag) {
            names.clear();
            tag = current;
        }
    }

    /**
     * The name with that code in the hash of that tag, or null when the copy lacks it or holds another tag's names: a
     * claim is read with the tag it saw, never with the codes of a hash that replaced that one meanwhile.
     */
    synchronized byte[] nameOf(int hashTag, long code) {
        return hashTag == tag ? names.get(code) : null;
    }

    /** Names read from the hash while it had {@code readTag}. */
    synchronized void learn(int readTag, Map<Long, byte[]> learnt) {
        observeTag(readTag);
        if (names.size() + learnt.size() > MAX_NAMES) {
            names.clear();
        }
        names.putAll(learnt);
    }
}
