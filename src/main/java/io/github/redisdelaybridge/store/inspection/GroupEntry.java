package io.github.redisdelaybridge.store.inspection;

/**
 * A message of a group as listed ({@code listGroup.lua}).
 *
 * @param messageId its id; a stand-in, {@code unresolvable-member:<hex>}, when Redis could not expand its packed member
 * @param dueAt     its due time as the group's index holds it (as scheduled or rescheduled; a retry's backoff does not move it)
 * @param inFlight  true while it is being delivered (a group cancel or reschedule leaves it alone)
 * @param position  where it is in its slot's group index
 */
public record GroupEntry(String messageId, long dueAt, boolean inFlight, ListPosition position) implements Listed {
}
