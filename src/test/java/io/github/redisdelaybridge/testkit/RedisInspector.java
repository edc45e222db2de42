package io.github.redisdelaybridge.testkit;

import io.github.redisdelaybridge.store.Keys;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.function.LongSupplier;

/** Reads the bridge's Redis structures for assertions: how many messages wait, how many are in flight. */
public final class RedisInspector implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;
    private final Keys keys;

    public RedisInspector(String uri, String prefix, int slots) {
        this.client = RedisClient.create(uri);
        this.connection = client.connect();
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

    /** How many claims are held under lease tokens starting with {@code instanceId}. */
    public long leasesHeldBy(String instanceId) {
        long total = 0;
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            total += connection.sync().hvals(keys.leases(slot)).stream().filter(token -> token.startsWith(instanceId + ":")).count();
        }
        return total;
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
