package io.github.redisdelaybridge.store;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's one Lettuce connection to Redis, with byte-array keys and values. Lettuce multiplexes
 * every caller over it and reconnects by itself after a Redis restart; commands issued while Redis is
 * down fail after the command timeout instead of queueing without bound.
 */
public final class RedisConnection implements AutoCloseable {

    private final ClientResources resources;
    private final RedisClient client;
    private final StatefulRedisConnection<byte[], byte[]> connection;

    public RedisConnection(String uri, Duration commandTimeout) {
        RedisURI redisUri = RedisURI.create(uri);
        redisUri.setTimeout(commandTimeout);
        // Reconnect quickly after a Redis restart: Lettuce's default backoff grows to 30 s.
        this.resources = DefaultClientResources.builder()
                .reconnectDelay(Delay.exponential(Duration.ofMillis(50), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS))
                .build();
        this.client = RedisClient.create(resources, redisUri);
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .build());
        this.connection = client.connect(ByteArrayCodec.INSTANCE);
    }

    public RedisAsyncCommands<byte[], byte[]> async() {
        return connection.async();
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        resources.shutdown(0, 2, TimeUnit.SECONDS);
    }
}
