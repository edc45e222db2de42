package io.github.redisdelaybridge.benchmark;

import io.github.redisdelaybridge.store.ClaimedBatch;
import io.github.redisdelaybridge.store.DueTime;
import io.github.redisdelaybridge.store.Keys;
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

/**
 * Scale of pending work: claim latency (the bridge's claim script through DelayStore, a batch of 500
 * due messages, timed at the client) with 10,000 and with 1,000,000 messages pending (due in an hour),
 * and Redis memory per pending message: (used_memory after loading - before) / N. For comparison, the
 * same ids and 100-byte payloads in a plain ZSET + HASH layout (no envelope).
 */
final class PendingScaleScenario {

    static final int CLAIM_BATCH = 500;

    record Result(int small, int large, LatencyRecorder claimSmallMicros, LatencyRecorder claimLargeMicros,
                  LatencyRecorder claimSmallServerMicros, LatencyRecorder claimLargeServerMicros,
                  double bytesPerMessageSmall, double bytesPerMessageLarge, double plainBytesPerMessage, int envelopeBytes,
                  double plainWithEnvelopeBytesPerMessage) {
    }

    private PendingScaleScenario() {
    }

    static Result measure(BenchEnvironment env, int small, int large, int samples) throws Exception {
        String name = "pending";
        String prefix = env.prefix(name);
        String target = env.topic(name, "target");
        String idPrefix = "delay.inbound-0-";
        try (BenchEnvironment.StoreHandle store = env.store(prefix, 1)) {
            long before = env.usedMemory();
            StoreLoader.load(store.store(), idPrefix, 0, small, farFuture(), target, env.payload());
            double perSmall = (env.usedMemory() - before) / (double) small;
            LatencyRecorder claimSmallServer = new LatencyRecorder();
            LatencyRecorder claimSmall = claimLatency(env, store, samples, "s", claimSmallServer);
            System.out.printf("pending %d: %.0f bytes/message, claim of %d: client %s, in Redis %s%n", small, perSmall, CLAIM_BATCH,
                    claimSmall.summary("us"), claimSmallServer.summary("us"));

            StoreLoader.load(store.store(), idPrefix, small, large - small, farFuture(), target, env.payload());
            double perLarge = (env.usedMemory() - before) / (double) large;
            LatencyRecorder claimLargeServer = new LatencyRecorder();
            LatencyRecorder claimLarge = claimLatency(env, store, samples, "l", claimLargeServer);
            System.out.printf("pending %d: %.0f bytes/message, claim of %d: client %s, in Redis %s%n", large, perLarge, CLAIM_BATCH,
                    claimLarge.summary("us"), claimLargeServer.summary("us"));
            env.deleteKeys(prefix);
            awaitFreed(env, before);

            double plain = plainLayoutBytesPerMessage(env, prefix + ":plain", idPrefix, large, env.payload());
            awaitFreed(env, before);
            byte[] envelope = io.github.redisdelaybridge.store.EnvelopeCodec.encode(
                    StoreLoader.envelope(idPrefix + (large - 1), target, env.payload()));
            double plainEnvelope = plainLayoutBytesPerMessage(env, prefix + ":plain", idPrefix, large, envelope);
            System.out.printf("plain ZSET+HASH layout: %.0f bytes/message with the 100-byte body as value, %.0f with the bridge's "
                    + "%d-byte envelope as value%n", plain, plainEnvelope, envelope.length);
            return new Result(small, large, claimSmall, claimLarge, claimSmallServer, claimLargeServer, perSmall, perLarge, plain, envelope.length, plainEnvelope);
        } finally {
            env.deleteKeys(prefix);
        }
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
            ClaimedBatch batch = store.store().claim(0, CLAIM_BATCH, 60_000, "bench:" + tag + s).get(30, TimeUnit.SECONDS);
            long elapsed = (System.nanoTime() - t0) / 1_000;
            long inRedis = evalshaMicros(env);
            if (batch.messages().size() != CLAIM_BATCH) {
                throw new IllegalStateException("claimed " + batch.messages().size() + " instead of " + CLAIM_BATCH);
            }
            if (s >= warmup) {
                micros.record(elapsed);
                serverMicros.record(inRedis);
            }
            store.store().acknowledge(0, batch.messages()).get(30, TimeUnit.SECONDS);
        }
        env.redis().unlink(keys.delivered(0));
        return micros;
    }

    /** Total run time of EVALSHA calls since the last CONFIG RESETSTAT. */
    private static long evalshaMicros(BenchEnvironment env) {
        for (String line : env.redis().info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:")) {
                for (String field : line.substring(line.indexOf(':') + 1).split(",")) {
                    if (field.startsWith("usec=")) {
                        return Long.parseLong(field.substring(5));
                    }
                }
            }
        }
        return -1;
    }

    private static double plainLayoutBytesPerMessage(BenchEnvironment env, String keyPrefix, String idPrefix, int count, byte[] value)
            throws Exception {
        RedisClient client = RedisClient.create(env.redisUri);
        try (StatefulRedisConnection<byte[], byte[]> connection = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisAsyncCommands<byte[], byte[]> redis = connection.async();
            byte[] zset = (keyPrefix + ":due").getBytes(StandardCharsets.UTF_8);
            byte[] hash = (keyPrefix + ":payloads").getBytes(StandardCharsets.UTF_8);
            long before = env.usedMemory();
            long due = System.currentTimeMillis() + StoreLoader.FAR_FUTURE_MS;
            List<RedisFuture<?>> pending = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                byte[] id = (idPrefix + i).getBytes(StandardCharsets.UTF_8);
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
