package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.store.Keys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/** Reads the bridge's Redis structures for assertions: how many messages wait, how many are in flight. */
public final class RedisInspector implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final Keys keys;

    public RedisInspector(String uri, String prefix, int slots) {
        this.client = RedisClient.create(uri);
        // ISO-8859-1: one char per byte, so packed members (lua/lib/memberIds: not UTF-8) stay distinct map keys
        this.connection = client.connect(new StringCodec(StandardCharsets.ISO_8859_1));
        this.keys = new Keys(prefix, slots);
    }

    public long pending() {
        long total = 0;
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            total += connection.sync().zcard(keys.due(slot));
        }
        return total;
    }

    public long inFlight() {
        long total = 0;
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            total += connection.sync().zcard(keys.inFlight(slot));
        }
        return total;
    }

    /**
     * Every claim now held: message member (its bytes as ISO-8859-1 text: the id itself unless packed) -> lease deadline
     * (its in-flight score), over all slots.
     */
    public Map<String, Double> leases() {
        Map<String, Double> leases = new HashMap<>();
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            connection.sync().zrangeWithScores(keys.inFlight(slot), 0, -1).forEach(lease -> leases.put(lease.getValue(), lease.getScore()));
        }
        return leases;
    }

    /** How many of {@code leases} (from {@link #leases()}) are still held: the same member in flight under the same deadline. */
    public long stillHeld(Map<String, Double> leases) {
        Map<String, Double> now = leases();
        return leases.entrySet().stream().filter(lease -> lease.getValue().equals(now.get(lease.getKey()))).count();
    }

    /** Waits until {@code value} reaches {@code expected}; returns the last value seen. */
    public static long awaitValue(LongSupplier value, long expected, Duration timeout) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        long seen = value.getAsLong();
        while (seen != expected && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
            seen = value.getAsLong();
        }
        return seen;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
