package io.github.redisdelaybridge.store.inspection;

import java.util.List;

/**
 * One page of a listing over all slots.
 *
 * @param entries the entries, in order
 * @param next    where the next page starts, or null when there is nothing more
 */
public record Listing<T>(List<T> entries, ListPosition next) {
}
