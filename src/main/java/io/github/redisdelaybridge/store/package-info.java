/**
 * The Redis store of delayed messages. This package holds what every room of it shares: the key layout ({@link
 * io.github.redisdelaybridge.store.Keys}) and the limits the scripts enforce. The rooms, bottom first: {@code connection}
 * and {@code script}, then {@code form}, then the faces by caller, {@code ingest}, {@code dispatch} and {@code inspection};
 * a room imports only from rooms below it ({@code PackageLayersTest}).
 */
package io.github.redisdelaybridge.store;
