package io.github.redisdelaybridge.store.connection;

import java.util.Locale;

/**
 * What Redis must have done with a batch's writes before the bridge acknowledges the batch upstream
 * ({@code bridge.redis.wait-*}). See docs/ARCHITECTURE.md (what an acknowledgement promises) for what each combination promises.
 *
 * @param waitReplicas  replicas of each written slot's master that must have received the writes ({@code WAIT}); 0: none;
 *                      {@link #EVERY_CONNECTED_REPLICA} ({@code auto}): every replica that master has connected now
 *                      ({@link ConnectedReplicas})
 * @param minReplicas   with {@code auto}, the floor: a master with fewer replicas connected holds the batch, unacknowledged
 * @param localFsync    whether the master must have fsynced them to its append-only file
 * @param waitTimeoutMs how long one {@code WAIT} / {@code WAITAOF} may take; not met in time, the batch is held and retried
 */
public record DurabilitySettings(int waitReplicas, int minReplicas, LocalFsync localFsync, long waitTimeoutMs) {

    /** {@code bridge.redis.wait-replicas=auto}: as Kafka's {@code acks=all}, every replica in sync with the master now. */
    public static final int EVERY_CONNECTED_REPLICA = -1;

    /** {@code bridge.redis.wait-aof-local}. */
    public enum LocalFsync {
        /** As {@link #TRUE} when the master runs with {@code appendonly yes}, as {@link #FALSE} when it does not. */
        AUTO,
        /** Promised: Redis 7.2+ by {@code WAITAOF 1}, older ones only with {@code appendfsync always} (checked). */
        TRUE,
        /** Not promised, not checked. */
        FALSE;

        public static LocalFsync parse(String value) {
            try {
                return valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("must be auto, true or false, got '" + value + "'");
            }
        }

        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DurabilitySettings {
        if (waitReplicas < EVERY_CONNECTED_REPLICA) {
            throw new IllegalArgumentException("wait-replicas must be auto or a number of replicas (0 or more), got " + waitReplicas);
        }
        if (minReplicas < 0) {
            throw new IllegalArgumentException("min-replicas must not be negative, got " + minReplicas);
        }
        if (waitReplicas != EVERY_CONNECTED_REPLICA && minReplicas > waitReplicas) {
            // a number already holds every batch until that many replicas confirm it: a higher floor could never be met
            throw new IllegalArgumentException("min-replicas (" + minReplicas + ") must not exceed wait-replicas (" + waitReplicas
                    + "); set wait-replicas=auto to wait for every connected replica with that floor");
        }
        if (waitTimeoutMs < 1) {
            // WAIT and WAITAOF read 0 as "block for ever": a lost replica would then stall ingest with no log line
            throw new IllegalArgumentException("wait-timeout-ms must be at least 1, got " + waitTimeoutMs);
        }
    }

    /** A fixed number of replicas (or {@code auto}) and no floor. */
    public DurabilitySettings(int waitReplicas, LocalFsync localFsync, long waitTimeoutMs) {
        this(waitReplicas, 0, localFsync, waitTimeoutMs);
    }

    /** No barrier: acknowledged once the master has the writes in memory (no replica, no fsync waited for). */
    public static DurabilitySettings memoryOnly() {
        return new DurabilitySettings(0, 0, LocalFsync.FALSE, 1_000);
    }

    /** {@code wait-replicas=auto}: the replicas to wait for are read from each master. */
    public boolean waitsForEveryConnectedReplica() {
        return waitReplicas == EVERY_CONNECTED_REPLICA;
    }

    /** {@code bridge.redis.wait-replicas} as it is written: {@code auto} or the number. */
    public String waitReplicasCode() {
        return waitsForEveryConnectedReplica() ? "auto" : Integer.toString(waitReplicas);
    }

    /** The fewest replicas a master may have connected before its batches are held: the number itself, or the floor. */
    public int replicasRequired() {
        return waitsForEveryConnectedReplica() ? minReplicas : waitReplicas;
    }

    /** Whether the master's fsync is promised, given whether it runs with an append-only file. */
    public boolean fsyncPromised(boolean aofEnabled) {
        return localFsync == LocalFsync.TRUE || (localFsync == LocalFsync.AUTO && aofEnabled);
    }
}
