package io.github.redisdelaybridge.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.List;

/** The Redis server this machine runs on 127.0.0.1:6379, and clean-up of one test's keys. */
public final class LocalRedis {

    public static final String URI = "redis://127.0.0.1:6379";

    private LocalRedis() {
    }

    /** Deletes every key under a prefix, so a re-run test starts clean. */
    public static void deleteKeys(String prefix) {
        RedisClient client = RedisClient.create(URI);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisCommands<String, String> redis = connection.sync();
            List<String> keys = redis.keys(prefix + ":*");
            if (!keys.isEmpty()) {
                redis.del(keys.toArray(String[]::new));
            }
        } finally {
            client.shutdown();
        }
    }
}
