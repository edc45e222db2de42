package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Redis the bridges under test keep their messages in, as the ingest and drain scenarios see it: the
 * benchmark's one redis-server ({@link StandaloneRedis}) or a Redis Cluster ({@link BenchCluster}). Both
 * answer the same commands through Lettuce's common interfaces, so the scenarios need not know which.
 */
interface BridgeRedis {

    /** The {@code bridge.redis.*} settings that point a bridge here (address, cluster mode, slot count). */
    Map<String, String> bridgeSettings();

    /** The due-set slots the bridges use here. */
    int slots();

    RedisClusterCommands<String, String> sync();

    RedisClusterAsyncCommands<String, String> async();

    /** A new connection of the bridge's own kind, for its {@code StoreFaces}. */
    RedisConnection openStoreConnection();

    /** Starts measuring CPU, counting this Redis's processes as "redis". */
    CpuMeter cpu();

    /** How the slots of a key prefix spread over the masters ("4/5/3"), or "" on one server. */
    default String spread(Keys keys) {
        return "";
    }

    default Keys keys(String prefix) {
        return new Keys(prefix, slots());
    }

    /** Messages waiting in the due sets of a key prefix: one ZCARD per slot, all sent before any reply is awaited. */
    default long pending(Keys keys) {
        List<RedisFuture<Long>> counts = new ArrayList<>(keys.slotCount());
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            counts.add(async().zcard(keys.due(slot)));
        }
        long total = 0;
        try {
            for (RedisFuture<Long> count : counts) {
                total += count.get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            throw new IllegalStateException("could not count pending messages", e);
        }
        return total;
    }

    /** The bridge's own store (its Lua scripts, its key layout) on a connection of the benchmark's. */
    default BenchEnvironment.StoreHandle store(String prefix) {
        return BenchEnvironment.StoreHandle.open(openStoreConnection(), keys(prefix));
    }

    /** Moves every pending message of a key prefix to {@code dueAt}. */
    default long retime(Keys keys, long dueAt) {
        return StoreLoader.retime(sync(), keys, dueAt, null, 0);
    }

    /**
     * Deletes (UNLINK, so large keys go in the background) every key under a prefix, then waits until Redis
     * has freed them and handed the memory back to the system (MEMORY PURGE), so that one scenario's clean-up
     * does not run inside the next one's measurement: the precision scenario leaves about 2 million delivered
     * ids behind, and a herd measured while they are being freed logs commands over 10 ms that it does not log on a
     * settled Redis.
     */
    default void deleteKeys(String prefix) {
        List<String> found = new ArrayList<>();
        ScanIterator.scan(sync(), ScanArgs.Builder.matches(prefix + ":*").limit(1000)).forEachRemaining(found::add);
        if (!found.isEmpty()) {
            sync().unlink(found.toArray(String[]::new));
        }
        long deadline = System.currentTimeMillis() + 60_000;
        while (lazyFreePending() > 0 && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        sync().dispatch(CommandType.MEMORY, new StatusOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).add("PURGE"));
    }

    private long lazyFreePending() {
        for (String line : sync().info("memory").split("\r?\n")) {
            if (line.startsWith("lazyfree_pending_objects:")) {
                return Long.parseLong(line.substring("lazyfree_pending_objects:".length()).trim());
            }
        }
        return 0;
    }
}
