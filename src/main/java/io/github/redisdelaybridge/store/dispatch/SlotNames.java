package io.github.redisdelaybridge.store.dispatch;

import io.github.redisdelaybridge.store.NameLimits;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bridge's copy of one slot's names hash (code -> name), for {@link ClaimedNames}. The hash is append-only (a
 * code is never reassigned), so a name once learnt stays right for as long as the hash keeps its tag. A different tag
 * means the hash was lost and recreated with other codes: names are kept per tag, so a claim is always read with the
 * names of the hash it saw, whatever other claims (read concurrently, on other connections) saw meanwhile.
 */
final class SlotNames {

    /**
     * Codes kept at most per tag, and their names' bytes: the hash is capped by settings ({@link NameLimits}) that may be set
     * high, so the copy starts again past its own bound (a claim reads the names it needs from its own map, {@link ClaimedNames}).
     */
    static final int MAX_NAMES = 100_000;
    static final long MAX_BYTES = 4L << 20;
    /** Heap one learnt name takes besides its bytes: the map's node, the boxed code and the array's header. */
    private static final long ENTRY_OVERHEAD_BYTES = 80;

    /** The names learnt from the hash while it had one tag, and the bytes accounted to them. */
    private record Tagged(int tag, Map<Long, byte[]> names, AtomicLong bytes) {
    }

    /**
     * The latest tag's names first, then the one before (claims read just before the hash was replaced), replaced whole when a
     * new tag comes: read without a lock.
     */
    private volatile Tagged[] tags = {};

    /**
     * The name with that code in the hash of that tag, or null when the copy lacks it. Without a lock: a claimed batch looks
     * up every member's and payload's codes on Lettuce's event loop, where a lock per look-up would cost a large share of its time.
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
        Tagged current = null;
        for (Tagged tagged : tags) {
            if (tagged.tag() == tag) {
                current = tagged;
            }
        }
        if (current == null) {
            current = new Tagged(tag, new ConcurrentHashMap<>(), new AtomicLong());
            tags = tags.length == 0 ? new Tagged[] {current} : new Tagged[] {current, tags[0]};
        }
        long learntBytes = 0;
        for (byte[] name : learnt.values()) {
            learntBytes += ENTRY_OVERHEAD_BYTES + name.length;
        }
        if (current.names().size() + learnt.size() > MAX_NAMES || current.bytes().get() + learntBytes > MAX_BYTES) {
            current.names().clear();
            current.bytes().set(0);
        }
        if (learnt.size() > MAX_NAMES || learntBytes > MAX_BYTES) {
            return; // more than the copy may hold: the claim that fetched them reads them from its own map
        }
        current.names().putAll(learnt);
        current.bytes().addAndGet(learntBytes);
    }
}
