package io.github.redisdelaybridge.store.inspection;

/**
 * Which pending messages a listing and its totals cover: those due in {@code [dueAfter, dueBefore)} whose target matches
 * {@code target}. Each part is optional (null: no bound, every target).
 *
 * @param dueAfter  due at or after this time (epoch ms), inclusive
 * @param dueBefore due before this time (epoch ms), exclusive
 * @param target    a glob as in the allow-list ({@code lua/lib/globMatch}: {@code *} for any run of characters, every
 *                  other character for itself, so that a glob without {@code *} is one exact target)
 */
public record PendingFilter(Long dueAfter, Long dueBefore, String target) {

    /** Every pending message. */
    public static final PendingFilter EVERY = new PendingFilter(null, null, null);

    /** No member is empty: a position with an empty member sorts before every message due at its time, in every slot. */
    private static final byte[] BEFORE_EVERY_MEMBER = new byte[0];

    /**
     * Where a listing starts: after {@code cursor}, but not before {@code dueAfter}. The cursor need not have been made
     * with this filter; a listing never goes back before it.
     */
    ListPosition start(ListPosition cursor) {
        if (dueAfter == null) {
            return cursor;
        }
        // slot -1: every slot's listing includes a member equal to this position's (ListPosition#includesMemberIn)
        ListPosition first = new ListPosition(dueAfter, BEFORE_EVERY_MEMBER, -1);
        return cursor == null || first.isAfter(cursor) ? first : cursor;
    }
}
