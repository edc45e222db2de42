/**
 * The store as the dispatch loop uses it ({@link io.github.redisdelaybridge.store.dispatch.DispatchStore}): claim due
 * messages under a lease, read the claimed names, settle each message, give back what a lost claim or an expired lease
 * holds; with its scripts and results.
 */
package io.github.redisdelaybridge.store.dispatch;
