package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Scale of pending work: claim latency (the bridge's claim script through DispatchStore, a batch of 500
 * due messages, timed at the client) with 10,000 and with 1,000,000 messages pending (due in an hour),
 * and Redis memory per pending message: (used_memory after loading - before) / N, with the bridge's
 * default Kafka ids ({@code delay.inbound-0-<offset>}) and again with 12-character ids a producer might
 * give ({@code o-} and 10 digits). For each, the floor: the same ids and 100-byte payloads in a plain
 * ZSET + HASH layout (the body as the hash value, no envelope, the ids verbatim: the bridge packs the
 * default Kafka ids, lua/lib/memberIds). Also the bytes of one stored payload as Redis holds it (the
 * envelope in its stored form).
 */
final class PendingScaleScenario {

    static final int CLAIM_BATCH = 500;
    private static final String KAFKA_ID_PREFIX = "delay.inbound-0-";
    private static final IntFunction<String> KAFKA_IDS = i -> KAFKA_ID_PREFIX + i;
    private static final IntFunction<String> SHORT_IDS = i -> String.format("o-%010d", i);

    /** Memory of one id style at the large count: the bridge's, the plain layout's, and one stored payload. */
    record Memory(int idLength, double bytesPerMessage, double plainBytesPerMessage, long storedPayloadBytes) {
    }

    record Result(int small, int large, LatencyRecorder claimSmallMicros, LatencyRecorder claimLargeMicros,
                  LatencyRecorder claimSmallServerMicros, LatencyRecorder claimLargeServerMicros,
                  double bytesPerMessageSmall, Memory kafkaIds, Memory shortIds) {
    }

    private PendingScaleScenario() {
    }

    static Result measure(BenchEnvironment env, int small, int large, int samples) throws Exception {
        String name = "pending";
        String prefix = env.prefix(name);
        String target = env.topic(name, "target");
        try (BenchEnvironment.StoreHandle store = env.store(prefix, 1)) {
            long before = env.usedMemory();
            StoreLoader.load(store.store(), KAFKA_IDS, 0, small, farFuture(), target, env.payload());
            double perSmall = (env.usedMemory() - before) / (double) small;
            LatencyRecorder claimSmallServer = new LatencyRecorder();
            LatencyRecorder claimSmall = claimLatency(env, store, samples, "s", claimSmallServer);
            System.out.printf("pending %d: %.0f bytes/message, claim of %d: client %s, in Redis %s%n", small, perSmall, CLAIM_BATCH,
                    claimSmall.summary("us"), claimSmallServer.summary("us"));

            StoreLoader.load(store.store(), KAFKA_IDS, small, large - small, farFuture(), target, env.payload());
            double perLarge = (env.usedMemory() - before) / (double) large;
            long storedKafka = storedPayloadBytes(store, KAFKA_IDS.apply(large - 1));
            LatencyRecorder claimLargeServer = new LatencyRecorder();
            LatencyRecorder claimLarge = claimLatency(env, store, samples, "l", claimLargeServer);
            System.out.printf("pending %d: %.0f bytes/message, claim of %d: client %s, in Redis %s%n", large, perLarge, CLAIM_BATCH,
                    claimLarge.summary("us"), claimLargeServer.summary("us"));
            env.deleteKeys(prefix);
            awaitFreed(env, before);
            Memory kafkaIds = new Memory(KAFKA_IDS.apply(large - 1).length(), perLarge,
                    plainLayoutBytesPerMessage(env, prefix + ":plain", KAFKA_IDS, large, env.payload()), storedKafka);
            awaitFreed(env, before);
            print("default Kafka ids", kafkaIds, env.payload().length);

            Memory shortIds = bridgeMemory(env, store, prefix, SHORT_IDS, large, target, before);
            print("12-character ids", shortIds, env.payload().length);
            return new Result(small, large, claimSmall, claimLarge, claimSmallServer, claimLargeServer, perSmall, kafkaIds, shortIds);
        } finally {
            env.deleteKeys(prefix);
        }
    }

    /** Loads {@code count} messages with ids {@code idOf(i)} through the bridge's store, then the same ids in the plain layout. */
    private static Memory bridgeMemory(BenchEnvironment env, BenchEnvironment.StoreHandle store, String prefix, IntFunction<String> idOf,
                                       int count, String target, long before) throws Exception {
        long start = env.usedMemory();
        StoreLoader.load(store.store(), idOf, 0, count, farFuture(), target, env.payload());
        double perMessage = (env.usedMemory() - start) / (double) count;
        long stored = storedPayloadBytes(store, idOf.apply(count - 1));
        env.deleteKeys(prefix);
        awaitFreed(env, before);
        double plain = plainLayoutBytesPerMessage(env, prefix + ":plain", idOf, count, env.payload());
        awaitFreed(env, before);
        return new Memory(idOf.apply(count - 1).length(), perMessage, plain, stored);
    }

    /** The payload's bytes in Redis (HSTRLEN, through inspect: the hash field is the id's member, packed or not). */
    private static long storedPayloadBytes(BenchEnvironment.StoreHandle store, String id) throws Exception {
        return store.store().inspection().inspect(id).get(30, TimeUnit.SECONDS).envelopeSize();
    }

    private static void print(String label, Memory memory, int bodyBytes) {
        System.out.printf("%s (%d characters): %.0f bytes/message; plain ZSET+HASH, same ids: %.0f; one stored payload: %d bytes "
                + "for a %d-byte body%n", label, memory.idLength(), memory.bytesPerMessage(), memory.plainBytesPerMessage(),
                memory.storedPayloadBytes(), bodyBytes);
    }

    private static DueTime farFuture() {
        return new DueTime.At(System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS);
    }

    /**
     * Per sample: store 500 messages due now (untimed), claim them (timed at the client, and in Redis: the
     * script's own run time from INFO commandstats, reset just before), acknowledge them (untimed).
     */
    private static LatencyRecorder claimLatency(BenchEnvironment env, BenchEnvironment.StoreHandle store, int samples, String tag,
                                                LatencyRecorder serverMicros) throws Exception {
        LatencyRecorder micros = new LatencyRecorder();
        Keys keys = store.keys();
        int warmup = 5;
        for (int s = 0; s < samples + warmup; s++) {
            StoreLoader.load(store.store(), "claim-" + tag + s + "-", 0, CLAIM_BATCH, new DueTime.At(0), "bench.claimed", env.payload());
            env.redis().configResetstat();
            long t0 = System.nanoTime();
            ClaimedBatch batch = store.store().dispatch().claim(0, CLAIM_BATCH, 60_000).get(30, TimeUnit.SECONDS);
            long elapsed = (System.nanoTime() - t0) / 1_000;
            long inRedis = evalshaMicros(env);
            if (batch.messages().size() != CLAIM_BATCH) {
                throw new IllegalStateException("claimed " + batch.messages().size() + " instead of " + CLAIM_BATCH);
            }
            if (s >= warmup) {
                micros.record(elapsed);
                serverMicros.record(inRedis);
            }
            store.store().dispatch().acknowledge(0, batch.messages()).get(30, TimeUnit.SECONDS);
        }
        env.redis().unlink(keys.delivered(0));
        return micros;
    }

    /** Total run time of EVALSHA calls since the last CONFIG RESETSTAT. */
    private static long evalshaMicros(BenchEnvironment env) {
        return env.scriptCalls().micros();
    }

    private static double plainLayoutBytesPerMessage(BenchEnvironment env, String keyPrefix, IntFunction<String> idOf, int count,
                                                     byte[] value) throws Exception {
        RedisClient client = RedisClient.create(env.redisUri);
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisAsyncCommands<byte[], byte[]> redis = connection.async();
            byte[] zset = (keyPrefix + ":due").getBytes(StandardCharsets.UTF_8);
            byte[] hash = (keyPrefix + ":payloads").getBytes(StandardCharsets.UTF_8);
            long before = env.usedMemory();
            long due = System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS;
            List<RedisFuture<?>> pending = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                byte[] id = idOf.apply(i).getBytes(StandardCharsets.UTF_8);
                pending.add(redis.zadd(zset, due, id));
                pending.add(redis.hset(hash, id, value));
                if (pending.size() >= 4_000) {
                    for (RedisFuture<?> f : pending) {
                        f.get(30, TimeUnit.SECONDS);
                    }
                    pending.clear();
                }
            }
            for (RedisFuture<?> f : pending) {
                f.get(30, TimeUnit.SECONDS);
            }
            double perMessage = (env.usedMemory() - before) / (double) count;
            redis.unlink(zset, hash).get(30, TimeUnit.SECONDS);
            return perMessage;
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(1));
        }
    }

    private static void awaitFreed(BenchEnvironment env, long before) throws InterruptedException {
        BenchEnvironment.awaitMillis(() -> env.usedMemory() < before + 1_000_000, 10_000, 50);
    }
}
