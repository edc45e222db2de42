package io.github.redisdelaybridge.dispatch;

/** Lets the inbound side wake the dispatcher when it stores a message due sooner than it planned to look. */
@FunctionalInterface
public interface DispatchWakeup {

    void wakeIfEarlierThan(long dueAtEpochMs);
}
