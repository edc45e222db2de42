package io.github.redisdelaybridge.config;

import io.github.redisdelaybridge.store.dispatch.DispatchStore;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.inspection.InspectionStore;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.health.RedisRequirementsException;
import io.github.redisdelaybridge.health.RedisServerWatch;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.connection.DurabilityBarrier;
import io.github.redisdelaybridge.store.connection.DurabilitySettings;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.StoreLimits;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.camel.spi.Registry;

/**
 * The store area: the Redis connections, the stores on them, the durability barrier and the watch over the server, built
 * right after the metrics and before anything that writes to Redis; the watch checks the server at once, so an unfit
 * Redis stops the start before a broker is contacted. Stop: the watch after the RabbitMQ connections; the connections
 * last of all, since everything else (settling, dead letters, the instance-id guard) uses them until it stops.
 *
 * @param redis       the connection of dispatching, the admin queries and the checks
 * @param ingestRedis the connection of ingest and admin writes: {@code redis} itself unless the barrier may send WAIT
 * @param dispatchStore   what the dispatch loop calls, on {@code redis}
 * @param inspectionStore what the admin API and the gauges read, on {@code redis}
 * @param ingestStore     what ingest and admin writes call, on {@code ingestRedis}
 * @param parkingStore    the parked targets' states and moves, on {@code redis}
 */
record StoreWiring(RedisConnection redis, RedisConnection ingestRedis, Keys keys, DispatchStore dispatchStore,
                   InspectionStore inspectionStore, IngestStore ingestStore, ParkingStore parkingStore,
                   DurabilityBarrier barrier, RedisServerWatch redisWatch) {

    /** @param fatalStop how the bridge stops for good when Redis turns out unfit after the start */
    static StoreWiring wire(BridgeSettings settings, BridgeMetrics metrics, Consumer<String> fatalStop) {
        RedisExpectations expectations = settings.redisExpectations();
        RedisConnection redis = new RedisConnection(RedisConnection.uris(settings.redisUri()), settings.redisCluster(),
                Duration.ofMillis(settings.redisTimeoutMs()), settings.redisSecurity());
        // WAIT and WAITAOF hold up every later command of their connection on the server until they return, so when the
        // barrier may send them, ingest writes (and admin writes) get a connection of their own and never delay dispatching.
        RedisConnection ingestRedis = expectations.durability().equals(DurabilitySettings.memoryOnly()) ? redis
                : new RedisConnection(RedisConnection.uris(settings.redisUri()), settings.redisCluster(), Duration.ofMillis(settings.redisTimeoutMs()),
                        settings.redisSecurity());
        Keys keys = new Keys(settings.keyPrefix(), settings.slots());
        StoreLimits limits = new StoreLimits(settings.maxDelayMs(), settings.dedupeWindowMs(), settings.cancelWindowMs(),
                settings.deadLetterMaxCount(), settings.deadLetterMaxAgeMs(), settings.deadLetterLimits().keepMaxBytes(), settings.names());
        ScriptRunner scripts = new ScriptRunner(redis.async(), metrics);
        DispatchStore dispatchStore = new DispatchStore(scripts, keys, limits);
        InspectionStore inspectionStore = new InspectionStore(scripts, keys, limits);
        IngestStore ingestStore = new IngestStore(ingestRedis == redis ? scripts : new ScriptRunner(ingestRedis.async(), metrics), keys, limits,
                metrics);
        DurabilityBarrier barrier = new DurabilityBarrier(ingestRedis, keys, expectations.durability());
        RedisServerWatch redisWatch = new RedisServerWatch(redis, barrier, expectations.allowEviction(), expectations.checkIntervalMs(),
                settings.redisTimeoutMs(), fatalStop);
        try {
            redisWatch.start();
        } catch (RedisRequirementsException unfit) {
            redisWatch.close();
            if (ingestRedis != redis) {
                ingestRedis.close();
            }
            redis.close();
            throw new InvalidSettingsException(List.of(unfit.getMessage()));
        }
        return new StoreWiring(redis, ingestRedis, keys, dispatchStore, inspectionStore, ingestStore, new ParkingStore(scripts, keys), barrier,
                redisWatch);
    }

    /** Binds the beans the routes name. */
    void bind(Registry registry) {
        registry.bind("redisServerWatch", redisWatch);
    }

    /** Closes the Redis connections: the last step of the stop. */
    void closeConnections() {
        if (ingestRedis != redis) {
            ingestRedis.close();
        }
        redis.close();
    }
}
