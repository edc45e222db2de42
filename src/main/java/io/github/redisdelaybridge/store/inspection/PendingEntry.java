package io.github.redisdelaybridge.store.inspection;

/**
 * A pending message as listed ({@code listPending.lua}): no body, no headers.
 *
 * @param messageId its id; a stand-in, {@code unresolvable-member:<hex>}, when Redis could not expand its packed
 *                  member (the slot's names hash lost its stem code)
 * @param size      bytes its envelope takes in Redis (the stored form: body, key, headers, codes for target and origin)
 * @param target    its target, or "" if its envelope is unreadable
 * @param position  where it is in its slot's due set (its member, which is not its id when packed)
 * @param group     its {@code x-group}, or null when it has none
 */
public record PendingEntry(String messageId, long dueAt, int attempts, long size, String target, ListPosition position, String group)
        implements Listed {

    /** A message without a group. */
    public PendingEntry(String messageId, long dueAt, int attempts, long size, String target, ListPosition position) {
        this(messageId, dueAt, attempts, size, target, position, null);
    }
}
