package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * A Redis Cluster of 3 masters on loopback, started for the scale-out scenario and stopped after it
 * ({@link RedisClusterProcesses}: redis-server in cluster mode, joined by redis-cli --cluster create), as
 * the bridges' store.
 */
final class BenchCluster implements BridgeRedis, AutoCloseable {

    static final int MASTERS = 3;

    /**
     * Due-set slots when --set bridge.redis.slots does not say: as in RedisClusterTest. Each slot's keys
     * share one hash tag, so they live on one master; with one slot (the single-server default) the whole
     * load would sit on one master, with a dozen each master owns several.
     */
    static final int DEFAULT_SLOTS = 12;

    private final RedisClusterProcesses processes;
    private final int slots;
    private final RedisClusterClient client;
    private final StatefulRedisClusterConnection<String, String> connection;

    BenchCluster(BenchOptions options) throws Exception {
        this.processes = new RedisClusterProcesses(MASTERS);
        if (options.realtimeRedis()) {
            RedisCpuPriority.raise(processes.pids());
        }
        this.slots = Integer.parseInt(options.bridgeOverrides().getOrDefault("bridge.redis.slots", Integer.toString(DEFAULT_SLOTS)));
        try {
            this.client = RedisClusterClient.create(RedisConnection.uris(processes.uris()).stream().map(RedisURI::create).toList());
            this.connection = client.connect();
        } catch (RuntimeException e) {
            processes.close();
            throw e;
        }
    }

    @Override
    public Map<String, String> bridgeSettings() {
        return Map.of("bridge.redis.uri", processes.uris(), "bridge.redis.cluster", "true", "bridge.redis.slots", Integer.toString(slots));
    }

    @Override
    public int slots() {
        return slots;
    }

    @Override
    public RedisClusterCommands<String, String> sync() {
        return connection.sync();
    }

    @Override
    public RedisClusterAsyncCommands<String, String> async() {
        return connection.async();
    }

    @Override
    public RedisConnection openStoreConnection() {
        return new RedisConnection(RedisConnection.uris(processes.uris()), true, Duration.ofSeconds(30));
    }

    @Override
    public CpuMeter cpu() {
        return CpuMeter.start(processes.pids().stream().mapToLong(Long::longValue).toArray());
    }

    /** Slots of the key prefix per master, masters in port order: "4/5/3". */
    @Override
    public String spread(Keys keys) {
        Map<Integer, Integer> perMaster = new LinkedHashMap<>();
        StreamSupport.stream(connection.getPartitions().spliterator(), false)
                .filter(node -> !node.getSlots().isEmpty())
                .map(RedisClusterNode::getUri)
                .sorted(Comparator.comparingInt(RedisURI::getPort))
                .forEach(uri -> perMaster.put(uri.getPort(), 0));
        for (int slot = 0; slot < keys.slotCount(); slot++) {
            int port = connection.getPartitions().getPartitionBySlot(SlotHash.getSlot(keys.due(slot))).getUri().getPort();
            perMaster.merge(port, 1, Integer::sum);
        }
        return perMaster.values().stream().map(String::valueOf).collect(Collectors.joining("/"));
    }

    @Override
    public void close() throws InterruptedException {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        processes.close();
    }
}
