package io.github.redisdelaybridge.store.parking;

/** What one call moved out of a target's parked index of one slot, and how many entries the index still has there. */
public record ParkedMoved(long moved, long left) {
}
