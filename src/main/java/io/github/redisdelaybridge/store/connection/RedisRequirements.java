package io.github.redisdelaybridge.store.connection;

import java.util.ArrayList;
import java.util.List;

/**
 * Holds the masters' set-up ({@link RedisServerFacts}) against what the bridge needs and promises: the scripts need
 * Redis 6.2; eviction may drop pending messages; the promised durability ({@link DurabilitySettings}) needs an
 * append-only file, and before Redis 7.2 (no {@code WAITAOF}) {@code appendfsync always}; replicas to wait for must
 * be connected. Each problem is a {@link Finding}: fatal ones stop a starting bridge, the others are warnings.
 */
public final class RedisRequirements {

    /** Oldest Redis the scripts run on. */
    static final int MIN_MAJOR = 6;
    static final int MIN_MINOR = 2;

    /** How much a finding weighs. */
    public enum Severity {
        /** The bridge cannot keep its promise: refuse to start (once running, warn at every check). */
        FATAL,
        /** Tolerated, by a setting or because the operator promised nothing else: warned at every check. */
        WARN,
        /** Worth saying once, not again at every check. */
        NOTE
    }

    /** One problem: what is wrong, what it costs, and how to fix or accept it, in one line. */
    public record Finding(Severity severity, String text) {
    }

    private RedisRequirements() {
    }

    public static List<Finding> check(List<RedisServerFacts> masters, DurabilitySettings durability, boolean allowEviction) {
        List<Finding> findings = new ArrayList<>();
        for (RedisServerFacts master : masters) {
            String redis = "Redis " + master.address() + " (" + master.version() + ")";
            if (!master.atLeast(MIN_MAJOR, MIN_MINOR)) {
                findings.add(new Finding(Severity.FATAL, redis + " is too old: the bridge's scripts need Redis " + MIN_MAJOR + "." + MIN_MINOR
                        + " or later"));
            }
            if (!"noeviction".equals(master.maxmemoryPolicy())) {
                findings.add(allowEviction
                        ? new Finding(Severity.WARN, redis + " runs maxmemory-policy " + master.maxmemoryPolicy() + ": when memory is full it"
                                + " may evict pending messages (those met later are dead-lettered as payload-missing, the others are lost);"
                                + " allowed by bridge.redis.allow-eviction=true")
                        : new Finding(Severity.FATAL, redis + " runs maxmemory-policy " + master.maxmemoryPolicy() + ", which may evict"
                                + " pending messages: set maxmemory-policy noeviction, or bridge.redis.allow-eviction=true to accept the loss"));
            }
            checkPersistence(master, redis, durability, findings);
            if (durability.replicasRequired() > master.connectedReplicas()) {
                findings.add(new Finding(Severity.WARN, redis + " has " + master.connectedReplicas() + " connected replica(s) and"
                        + (durability.waitsForEveryConnectedReplica() ? " bridge.redis.min-replicas is " + durability.minReplicas()
                                : " bridge.redis.wait-replicas is " + durability.waitReplicas())
                        + ": inbound batches are held, unacknowledged, until enough replicas confirm them"));
            }
        }
        return findings;
    }

    private static void checkPersistence(RedisServerFacts master, String redis, DurabilitySettings durability, List<Finding> findings) {
        DurabilitySettings.LocalFsync fsync = durability.localFsync();
        if (fsync == DurabilitySettings.LocalFsync.FALSE) {
            return;
        }
        if (!master.aofEnabled()) {
            findings.add(fsync == DurabilitySettings.LocalFsync.TRUE
                    ? new Finding(Severity.FATAL, redis + " runs without an append-only file (appendonly no), but"
                            + " bridge.redis.wait-aof-local=true promises that acknowledged messages are on its disk: set appendonly yes")
                    : new Finding(Severity.NOTE, redis + " runs without an append-only file (appendonly no): acknowledged messages"
                            + " live in its memory (and its replicas'), and a restart of it loses them; set appendonly yes"
                            + " (bridge.redis.wait-aof-local=auto then waits for its fsync), or wait-aof-local=false to say so"));
            return;
        }
        if (master.supportsWaitAof()) {
            return; // WAITAOF 1 confirms each batch's fsync, whatever appendfsync says
        }
        if (master.appendfsync() == null) {
            findings.add(new Finding(Severity.NOTE, redis + ": cannot verify appendfsync (CONFIG GET is not allowed for this user);"
                    + " before Redis 7.2 the fsync of acknowledged messages holds only with appendfsync always"));
        } else if (!"always".equals(master.appendfsync())) {
            String cost = redis + " runs appendfsync " + master.appendfsync() + " and is older than 7.2 (no WAITAOF): up to about a second"
                    + " of acknowledged messages can be lost when its host crashes";
            findings.add(fsync == DurabilitySettings.LocalFsync.TRUE
                    ? new Finding(Severity.FATAL, cost + ", which bridge.redis.wait-aof-local=true does not allow: set appendfsync always")
                    : new Finding(Severity.WARN, cost + "; set appendfsync always, or bridge.redis.wait-aof-local=false to accept it"));
        }
    }
}
