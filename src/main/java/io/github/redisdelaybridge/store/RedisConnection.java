package io.github.redisdelaybridge.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's one Lettuce connection to Redis (a single server or a Redis Cluster), with byte-array
 * keys and values. Lettuce multiplexes every caller over it and reconnects by itself after a Redis
 * restart; commands issued while Redis is down fail at once (or after the command timeout) instead of
 * queueing without bound. On a cluster, each script call goes to the master owning its keys' hash slot.
 */
public final class RedisConnection implements AutoCloseable {

    private final ClientResources resources;
    private final AbstractRedisClient client;
    private final StatefulConnection<byte[], byte[]> connection;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    private final java.util.function.Supplier<CompletableFuture<String>> ping;

    /** One server: {@code redis://host:port}. */
    public RedisConnection(String uri, Duration commandTimeout) {
        this(List.of(uri), false, commandTimeout);
    }

    /**
     * @param uris    one server, or the seed nodes of a cluster
     * @param cluster whether {@code uris} are Redis Cluster nodes
     */
    public RedisConnection(List<String> uris, boolean cluster, Duration commandTimeout) {
        // Reconnect quickly after a Redis restart: Lettuce's default backoff grows to 30 s.
        this.resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
                .build();
        List<RedisURI> redisUris = uris.stream().map(uri -> {
            RedisURI redisUri = RedisURI.create(uri.strip());
            redisUri.setTimeout(commandTimeout);
            return redisUri;
        }).toList();
        if (cluster) {
            RedisClusterClient clusterClient = RedisClusterClient.create(resources, redisUris);
            clusterClient.setOptions(ClusterClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enablePeriodicRefresh(Duration.ofSeconds(30))
                            .enableAllAdaptiveRefreshTriggers()
                            .build())
                    .build());
            StatefulRedisClusterConnection<byte[], byte[]> clusterConnection = clusterClient.connect(ByteArrayCodec.INSTANCE);
            this.client = clusterClient;
            this.connection = clusterConnection;
            this.commands = clusterConnection.async();
            this.ping = () -> clusterConnection.async().ping().toCompletableFuture();
        } else {
            if (redisUris.size() != 1) {
                throw new IllegalArgumentException("one Redis URI expected without cluster mode, got " + uris);
            }
            RedisClient standalone = RedisClient.create(resources, redisUris.get(0));
            standalone.setOptions(ClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                    .build());
            var standaloneConnection = standalone.connect(ByteArrayCodec.INSTANCE);
            this.client = standalone;
            this.connection = standaloneConnection;
            this.commands = standaloneConnection.async();
            this.ping = () -> standaloneConnection.async().ping().toCompletableFuture();
        }
    }

    /** Parses {@code bridge.redis.uri}: one URI, or a comma-separated list of cluster seed nodes. */
    public static List<String> uris(String setting) {
        return Arrays.stream(setting.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** The commands both a single server and a cluster answer (the store needs only the scripting ones). */
    public RedisClusterAsyncCommands<byte[], byte[]> async() {
        return commands;
    }

    public CompletableFuture<String> ping() {
        return ping.get();
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
