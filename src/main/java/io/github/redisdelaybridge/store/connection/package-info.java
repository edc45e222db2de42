/**
 * Reaching Redis and trusting what it confirms: the connection (one server, Sentinel or Cluster) with its security, the
 * checks of the servers' set-up, and the durability barrier ({@code WAIT}, {@code WAITAOF}) that writes pass before they
 * are acknowledged.
 */
package io.github.redisdelaybridge.store.connection;
