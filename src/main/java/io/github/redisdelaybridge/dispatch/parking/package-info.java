/**
 * Parked targets: a target that keeps failing, or that an operator paused, has its messages parked out of every claim's
 * reach ({@link io.github.redisdelaybridge.dispatch.parking.ParkedTargets}), is probed one message at a time with backoff,
 * and gets its backlog back at a controlled rate once it answers or is resumed
 * ({@link io.github.redisdelaybridge.dispatch.parking.ParkedTargetsWork}).
 */
package io.github.redisdelaybridge.dispatch.parking;
