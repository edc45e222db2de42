/**
 * The store as messages and controls from outside reach it ({@link io.github.redisdelaybridge.store.ingest.IngestStore}):
 * store messages, cancel them, change their due time, and keep the records of refused ones; with its scripts and results.
 */
package io.github.redisdelaybridge.store.ingest;
