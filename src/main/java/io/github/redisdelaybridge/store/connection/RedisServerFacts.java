package io.github.redisdelaybridge.store.connection;

import java.util.HashMap;
import java.util.Map;

/**
 * How one Redis master is set up, as far as the bridge's promises depend on it: read from {@code INFO} (which
 * every client may run) and {@code CONFIG GET appendfsync} (which an ACL may deny: then {@code appendfsync} is null).
 *
 * @param address           host:port of the master, as the bridge reaches it
 * @param version           {@code redis_version}
 * @param maxmemoryPolicy   {@code maxmemory_policy}: anything but {@code noeviction} may drop the bridge's keys
 * @param aofEnabled        {@code aof_enabled}: the master writes an append-only file
 * @param appendfsync       {@code always}, {@code everysec} or {@code no}; null when CONFIG GET is not allowed
 * @param connectedReplicas {@code connected_slaves}
 */
public record RedisServerFacts(String address, String version, String maxmemoryPolicy, boolean aofEnabled, String appendfsync,
                               int connectedReplicas) {

    /** Parses the text of {@code INFO} (all sections, or at least server, memory, persistence and replication). */
    public static RedisServerFacts fromInfo(String address, String info, String appendfsync) {
        Map<String, String> fields = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        }
        return new RedisServerFacts(address, fields.getOrDefault("redis_version", "0"), fields.getOrDefault("maxmemory_policy", "unknown"),
                "1".equals(fields.get("aof_enabled")), appendfsync, Integer.parseInt(fields.getOrDefault("connected_slaves", "0")));
    }

    /** True when the version is {@code major.minor} or later. */
    public boolean atLeast(int major, int minor) {
        String[] parts = version.split("\\.");
        int actualMajor = number(parts, 0);
        int actualMinor = number(parts, 1);
        return actualMajor > major || (actualMajor == major && actualMinor >= minor);
    }

    /** {@code WAITAOF} came with Redis 7.2. */
    public boolean supportsWaitAof() {
        return atLeast(7, 2);
    }

    private static int number(String[] parts, int index) {
        try {
            return index < parts.length ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
