/**
 * The store as parking uses it ({@link io.github.redisdelaybridge.store.parking.ParkingStore}): the shared state of parked,
 * paused and returning targets, the per-slot sets that make claims park a target's messages, and the moves of parked
 * messages back to the due set; with its scripts and results.
 */
package io.github.redisdelaybridge.store.parking;
