package io.github.redisdelaybridge.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/**
 * A place in a sorted set of message ids, in the set's own order: by score (a due time, a dead-letter
 * time), then by the id's bytes. A listing continues after it; it need not be a member any more.
 */
public record ListPosition(long score, String id) {

    /** The order of Redis sorted sets: score, then members compared as unsigned bytes. */
    public static final Comparator<ListPosition> ORDER = Comparator.comparingLong(ListPosition::score)
            .thenComparing((a, b) -> Arrays.compareUnsigned(a.id.getBytes(StandardCharsets.UTF_8), b.id.getBytes(StandardCharsets.UTF_8)));

    public boolean isAfter(ListPosition other) {
        return ORDER.compare(this, other) > 0;
    }
}
