package io.github.redisdelaybridge.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bridge's copy of one slot's names hash (code -> name), for {@link ClaimedNames}. The hash is append-only (a
 * code is never reassigned), so a name once learnt stays right for as long as the hash keeps its tag. A different tag
 * means the hash was lost and recreated with other codes: names are kept per tag, so a claim is always read with the
 * names of the hash it saw, whatever other claims (read concurrently, on other connections) saw meanwhile.
 */
final class SlotNames {

    /** Codes kept at most per tag: the hash itself is bounded only by the number of distinct targets, so the copy starts again past it. */
    static final int MAX_NAMES = 100_000;
    /** The names learnt from the hash while it had one tag. */
    private record Tagged(int tag, Map<Long, byte[]> names) {
    }

    /**
     * The latest tag's names first, then the one before (claims read just before the hash was replaced), replaced whole when a
     * new tag comes: read without a lock.
     */
    private volatile Tagged[] tags = {};

    /**
     * The name with that code in the hash of that tag, or null when the copy lacks it. Without a lock: a claimed batch looks
     * up every member's and payload's codes, on Lettuce's event loop, and a synchronized look-up was a tenth of its time there.
     */
    byte[] nameOf(int tag, long code) {
        for (Tagged tagged : tags) {
            if (tagged.tag() == tag) {
                return tagged.names().get(code);
            }
        }
        return null;
    }

    /** Names read from the hash while it had {@code tag}. */
    synchronized void learn(int tag, Map<Long, byte[]> learnt) {
        Map<Long, byte[]> names = null;
        for (Tagged tagged : tags) {
            if (tagged.tag() == tag) {
                names = tagged.names();
            }
        }
        if (names == null) {
            names = new ConcurrentHashMap<>();
            tags = tags.length == 0 ? new Tagged[] {new Tagged(tag, names)} : new Tagged[] {new Tagged(tag, names), tags[0]};
        }
        if (names.size() + learnt.size() > MAX_NAMES) {
            names.clear();
        }
        names.putAll(learnt);
    }
}
