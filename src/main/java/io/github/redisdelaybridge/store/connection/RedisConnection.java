package io.github.redisdelaybridge.store.connection;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The bridge's one Lettuce connection to Redis (a single server, a master found through Sentinel, or a Redis
 * Cluster), with byte-array keys and values. Lettuce multiplexes every caller over it and reconnects by
 * itself after a Redis restart or a failover (through Sentinel it asks the sentinels for the current master
 * on every reconnect); commands issued while Redis is down fail at once (or after the command timeout)
 * instead of queueing without bound. On a cluster, each script call goes to the master owning its keys'
 * hash slot.
 *
 * <p>Redis need not be there when the bridge starts: the first connection is tried once in the constructor
 * and then in the background ({@link RedisConnector}) until it succeeds. Until then {@link #async()}
 * fails every command and {@link #isConnected()} is false.
 */
public final class RedisConnection implements AutoCloseable {

    private final ClientResources resources;
    private final AbstractRedisClient client;
    private final boolean cluster;
    private final String description;
    private final RedisConnector connector;
    private final ConnectionEventLog eventLog;
    private volatile StatefulConnection<byte[], byte[]> connection;
    private volatile RedisClusterAsyncCommands<byte[], byte[]> commands;

    /** One server ({@code redis://host:port}) or Sentinel ({@code redis-sentinel://host:port,host:port#master}). */
    public RedisConnection(String uri, Duration commandTimeout) {
        this(List.of(uri), false, commandTimeout);
    }

    /**
     * @param uris    one server or Sentinel URI, or the seed nodes of a cluster
     * @param cluster whether {@code uris} are Redis Cluster nodes
     */
    public RedisConnection(List<String> uris, boolean cluster, Duration commandTimeout) {
        this(uris, cluster, commandTimeout, RedisSecurity.none());
    }

    /** As above, with an ACL user and TLS stores ({@code rediss://} URIs). */
    public RedisConnection(List<String> uris, boolean cluster, Duration commandTimeout, RedisSecurity security) {
        this.cluster = cluster;
        // the URIs may carry a password: log lines and exception messages name them without it
        this.description = uris.stream().map(RedisConnection::redacted).collect(Collectors.joining(",")) + (cluster ? " (cluster)" : "");
        List<RedisURI> redisUris = uris.stream().map(uri -> {
            RedisURI redisUri = RedisUris.parse(uri);
            redisUri.setTimeout(commandTimeout);
            security.applyTo(redisUri);
            return redisUri;
        }).toList();
        if (!cluster && redisUris.size() != 1) {
            throw new IllegalArgumentException("one Redis URI expected without cluster mode, got " + description);
        }
        // Reconnect quickly after a Redis restart: Lettuce's default backoff grows to 30 s.
        this.resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
                .build();
        io.lettuce.core.SslOptions sslOptions = security.sslOptions();
        if (cluster) {
            RedisClusterClient clusterClient = RedisClusterClient.create(resources, redisUris);
            clusterClient.setOptions(ClusterClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                    .sslOptions(sslOptions)
                    .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                            .enablePeriodicRefresh(Duration.ofSeconds(30))
                            .enableAllAdaptiveRefreshTriggers()
                            // Lettuce's default lets one adaptive refresh in per 30 s: the one a dead master's first failed
                            // reconnects trigger comes before the cluster has promoted its replica, and the next would wait
                            // out the rest of those 30 s, with that master's slots unreachable (ingest held) all along
                            .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(2))
                            .build())
                    .build());
            this.client = clusterClient;
        } else {
            RedisClient standalone = RedisClient.create(resources, redisUris.get(0));
            standalone.setOptions(ClientOptions.builder()
                    .autoReconnect(true)
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                    .sslOptions(sslOptions)
                    .build());
            this.client = standalone;
        }
        this.eventLog = new ConnectionEventLog(description, redisUris.stream().flatMap(uri -> uri.getSentinels().stream())
                .map(sentinel -> sentinel.getHost() + ":" + sentinel.getPort()).collect(Collectors.toSet()));
        eventLog.follow(resources.eventBus());
        this.connector = new RedisConnector(description, this::connectOnce);
        connector.start();
    }

    /** One attempt at the first connection; throws when Redis cannot be reached. */
    private void connectOnce() {
        if (cluster) {
            StatefulRedisClusterConnection<byte[], byte[]> clusterConnection = ((RedisClusterClient) client).connect(ByteArrayCodec.INSTANCE);
            this.commands = clusterConnection.async();
            this.connection = clusterConnection;
        } else {
            StatefulRedisConnection<byte[], byte[]> standaloneConnection = ((RedisClient) client).connect(ByteArrayCodec.INSTANCE);
            this.commands = standaloneConnection.async();
            this.connection = standaloneConnection;
        }
    }

    /** The URIs without the user information they may hold ({@code redis://user:secret@host} -> {@code redis://***@host}). */
    public static String redacted(String uri) {
        return RedisUris.redacted(uri);
    }

    /** Parses {@code bridge.redis.uri}: one URI, or a comma-separated list of cluster seed nodes ({@link RedisUris#split}). */
    public static List<String> uris(String setting) {
        return RedisUris.split(setting);
    }

    /**
     * The commands both a single server and a cluster answer (the store needs only the scripting ones). Before
     * the first connection, a stand-in that fails every command with "not connected".
     */
    public RedisClusterAsyncCommands<byte[], byte[]> async() {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        return connected != null ? connected : NotConnectedCommands.delegatingOnceConnected(() -> commands, description);
    }

    /** True while a connection to Redis is open (false before the first one, and while Lettuce reconnects). */
    public boolean isConnected() {
        StatefulConnection<byte[], byte[]> current = connection;
        return current != null && current.isOpen();
    }

    /**
     * Runs {@code listener} whenever a connection to a Redis server opens (the first one, a reconnect, a new master after
     * a failover, a Cluster node); not for the short connections to sentinels. On Lettuce's event thread: it must not block.
     */
    void onConnected(Runnable listener) {
        eventLog.onConnected(listener);
    }

    /** What {@code bridge.redis.uri} named, for log lines. */
    public String description() {
        return description;
    }

    /**
     * Writes {@code key} (a short-lived value: the time, expiring after {@code ttlMs}): succeeds only where Redis takes
     * writes, so a replica (READONLY), a full Redis under noeviction (OOM) and a Redis that is down all fail it, in their
     * own words.
     */
    public CompletableFuture<String> writeProbe(String key, long ttlMs) {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.set(key.getBytes(StandardCharsets.UTF_8),
                Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.UTF_8),
                SetArgs.Builder.px(ttlMs)).toCompletableFuture();
    }

    /**
     * Sets {@code key} to {@code value}, expiring after {@code ttlMs}, and returns what it held before (null if nothing):
     * one {@code SET ... GET}, so no other writer can come between the read and the write.
     */
    public CompletableFuture<String> replace(String key, String value, long ttlMs) {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.setGet(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8),
                        SetArgs.Builder.px(ttlMs)).toCompletableFuture()
                .thenApply(previous -> previous == null ? null : new String(previous, StandardCharsets.UTF_8));
    }

    /** What {@code key} holds as text (null if nothing). */
    public CompletableFuture<String> read(String key) {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.get(key.getBytes(StandardCharsets.UTF_8)).toCompletableFuture()
                .thenApply(value -> value == null ? null : new String(value, StandardCharsets.UTF_8));
    }

    /** How long {@code key} has left to live, in ms: -1 without an expiry, -2 when it does not exist ({@code PTTL}). */
    public CompletableFuture<Long> remainingTtlMs(String key) {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.pttl(key.getBytes(StandardCharsets.UTF_8)).toCompletableFuture();
    }

    /** Redis's clock in epoch ms ({@code TIME}), the clock the scripts read. */
    public CompletableFuture<Long> redisTimeMs() {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.time().toCompletableFuture().thenApply(time -> Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII))
                * 1000 + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1000);
    }

    public CompletableFuture<String> ping() {
        RedisClusterAsyncCommands<byte[], byte[]> connected = commands;
        if (connected == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        return connected.ping().toCompletableFuture();
    }

    /**
     * The connection to the master that holds {@code key}: the server itself (or the master Sentinel named), or on a
     * cluster the node connection Lettuce routes that key's writes through (it keys node connections by host and
     * port, as here), so that a {@code WAIT} sent on it covers the writes of the scripts run for that key.
     */
    CompletableFuture<StatefulRedisConnection<byte[], byte[]>> masterConnectionFor(byte[] key) {
        StatefulConnection<byte[], byte[]> current = connection;
        if (current == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        if (!(current instanceof StatefulRedisClusterConnection<byte[], byte[]> clusterConnection)) {
            return CompletableFuture.completedFuture(standalone(current));
        }
        RedisClusterNode master = clusterConnection.getPartitions().getMasterBySlot(SlotHash.getSlot(key));
        if (master == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("no master known for the hash slot of " + new String(key)));
        }
        return clusterConnection.getConnectionAsync(master.getUri().getHost(), master.getUri().getPort());
    }

    /**
     * Asks the cluster for its topology again (a node this connection took for a master answered as a replica: a failover
     * it has not seen yet). Nothing to do on one server or through Sentinel.
     */
    CompletableFuture<Void> refreshTopology() {
        if (client instanceof RedisClusterClient clusterClient) {
            return clusterClient.refreshPartitionsAsync().toCompletableFuture().thenApply(done -> null);
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Connections to every master: the one server, or each master of the cluster (for checking how they are configured). */
    CompletableFuture<List<MasterNode>> masterConnections() {
        StatefulConnection<byte[], byte[]> current = connection;
        if (current == null) {
            return CompletableFuture.failedFuture(NotConnectedCommands.notConnected(description));
        }
        if (!(current instanceof StatefulRedisClusterConnection<byte[], byte[]> clusterConnection)) {
            return CompletableFuture.completedFuture(List.of(new MasterNode(description, standalone(current))));
        }
        List<CompletableFuture<MasterNode>> masters = new ArrayList<>();
        for (RedisClusterNode node : clusterConnection.getPartitions()) {
            if (node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty()) {
                String address = node.getUri().getHost() + ":" + node.getUri().getPort();
                masters.add(clusterConnection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                        .thenApply(nodeConnection -> new MasterNode(address, nodeConnection)));
            }
        }
        return CompletableFuture.allOf(masters.toArray(CompletableFuture[]::new))
                .thenApply(done -> masters.stream().map(CompletableFuture::join).toList());
    }

    @SuppressWarnings("unchecked")
    private static StatefulRedisConnection<byte[], byte[]> standalone(StatefulConnection<byte[], byte[]> connection) {
        return (StatefulRedisConnection<byte[], byte[]>) connection;
    }

    @Override
    public void close() {
        eventLog.stop();
        connector.close();
        StatefulConnection<byte[], byte[]> current = connection;
        if (current != null) {
            current.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
