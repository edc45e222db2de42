package io.github.redisdelaybridge.config;

/**
 * How the inbound Kafka consumers belong to their group ({@code bridge.instance-id}, {@code bridge.kafka.session-timeout-ms}).
 *
 * @param staticMembers    whether each consumer joins as a static member, {@code group.instance.id} = {@code <instance-id>-<n>}:
 *                         only when {@code bridge.instance-id} is set, since a generated id changes with every start and a
 *                         restart could not take its old members' place
 * @param sessionTimeoutMs how long the group waits for a member that stopped heartbeating before its partitions go to the
 *                         other consumers: the bound on the takeover after an instance died for good
 */
public record KafkaMembership(boolean staticMembers, long sessionTimeoutMs) {

    public static final String SESSION_TIMEOUT_KEY = "bridge.kafka.session-timeout-ms";
    public static final long DEFAULT_SESSION_TIMEOUT_MS = 15_000;
    /** Kafka brokers refuse shorter sessions by default ({@code group.min.session.timeout.ms}); two 3 s heartbeats fit in it. */
    static final long MIN_SESSION_TIMEOUT_MS = 6_000;

    public KafkaMembership {
        if (sessionTimeoutMs < MIN_SESSION_TIMEOUT_MS) {
            throw new IllegalArgumentException("setting " + SESSION_TIMEOUT_KEY + " must be at least " + MIN_SESSION_TIMEOUT_MS
                    + " (the brokers' default group.min.session.timeout.ms; consumers heartbeat every 3 s), got " + sessionTimeoutMs);
        }
    }
}
