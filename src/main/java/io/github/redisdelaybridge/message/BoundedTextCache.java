package io.github.redisdelaybridge.message;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Values worked out from a text that producers choose (a target, say), remembered per text within a bound on entries AND
 * on the bytes they hold: the texts themselves are producers' to choose, so a count alone would let a few long ones fill
 * the heap. Past either bound the memory starts again (the values are only ever recomputed, never lost), and a text too
 * long to be worth a place is not remembered at all. Reads take no lock; a miss computes the value outside any lock.
 *
 * @param <V> the value; {@code weigher} tells how many bytes of heap one holds beyond what the cache accounts itself
 */
public final class BoundedTextCache<V> {

    /** Heap one entry takes besides its text and value: the map's node and the key's String and array headers. */
    static final long ENTRY_OVERHEAD_BYTES = 96;
    /** Entries whose bytes exceed this share of the byte bound are not remembered. */
    private static final int LARGEST_ENTRY_SHARE = 64;

    private final int maxEntries;
    private final long maxBytes;
    private final ToLongFunction<V> weigher;
    private final Map<String, V> entries = new ConcurrentHashMap<>();
    /** Bytes accounted to the entries held; guarded by this. */
    private long bytes;

    /**
     * @param maxEntries entries remembered at most
     * @param maxBytes   bytes accounted to the entries at most (texts counted at two bytes a character, as the worst case)
     * @param weigher    bytes of one value (objects it alone holds)
     */
    public BoundedTextCache(int maxEntries, long maxBytes, ToLongFunction<V> weigher) {
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a cache holds at least one entry and one byte, got " + maxEntries + " and " + maxBytes);
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.weigher = weigher;
    }

    /**
     * The value remembered for the text, else {@code compute}'s (remembered when it fits). Two threads that miss together
     * may both compute; both get the value remembered first. {@code compute} may throw: nothing is remembered then.
     */
    public V get(String text, Function<String, V> compute) {
        V value = entries.get(text);
        if (value != null) {
            return value;
        }
        value = compute.apply(text);
        long size = ENTRY_OVERHEAD_BYTES + 2L * text.length() + weigher.applyAsLong(value);
        if (size > maxBytes / LARGEST_ENTRY_SHARE) {
            return value;
        }
        synchronized (this) {
            V earlier = entries.get(text);
            if (earlier != null) {
                return earlier;
            }
            if (entries.size() >= maxEntries || bytes + size > maxBytes) {
                entries.clear();
                bytes = 0;
            }
            entries.put(text, value);
            bytes += size;
        }
        return value;
    }

    /** Bytes accounted to the entries held now. */
    public synchronized long bytes() {
        return bytes;
    }

    public int size() {
        return entries.size();
    }

    /** Heap of a String of this text: header, array header and two bytes a character at most. */
    public static long stringBytes(String text) {
        return text == null ? 0 : 40 + 2L * text.length();
    }
}
