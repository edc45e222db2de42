package io.github.redisdelaybridge.store.inspection;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;

/**
 * A place in the sorted sets of all slots, in their own order: by score (a due time, a dead-letter time), then by the
 * member's bytes, then by slot. A listing continues after it; its member need not be there any more.
 *
 * <p>The slot orders equal members of different slots: a packed member ({@code lua/lib/memberIds}) is made with codes
 * of its slot's names hash, so two slots can hold the same bytes for two different ids. A list script starting from a
 * position in an earlier slot therefore includes a member equal to the position's (it was not listed yet), and one
 * starting from a position in the same or a later slot starts after it. Dead letters are keyed by id, which is in one
 * slot only, so for them the slot never decides.
 *
 * @param score  the score
 * @param member the member's bytes as stored (a packed member, or an id's UTF-8)
 * @param slot   the slot it is in
 */
public record ListPosition(long score, byte[] member, int slot) {

    /** The order of Redis sorted sets (score, then members compared as unsigned bytes), then the slot. */
    public static final Comparator<ListPosition> ORDER = Comparator.comparingLong(ListPosition::score)
            .thenComparing((a, b) -> Arrays.compareUnsigned(a.member, b.member))
            .thenComparingInt(ListPosition::slot);

    public boolean isAfter(ListPosition other) {
        return ORDER.compare(this, other) > 0;
    }

    /** Whether a listing of {@code slotOfListing} that continues from here starts at a member equal to this one. */
    public boolean includesMemberIn(int slotOfListing) {
        return slotOfListing > slot;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ListPosition that && score == that.score && slot == that.slot && Arrays.equals(member, that.member);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(score) * 31 + Arrays.hashCode(member)) * 31 + slot;
    }

    @Override
    public String toString() {
        return "ListPosition[" + score + ", " + HexFormat.of().formatHex(member) + ", slot " + slot + "]";
    }
}
