/**
 * The store as operators' tools see it ({@link io.github.redisdelaybridge.store.inspection.InspectionStore}): one
 * message, pages of pending messages and dead letters, counts, gauges and the due histogram, and dead-letter replay and
 * delete; with its scripts and results.
 */
package io.github.redisdelaybridge.store.inspection;
