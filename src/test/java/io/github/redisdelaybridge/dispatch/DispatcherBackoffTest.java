package io.github.redisdelaybridge.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.testkit.FreePorts;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * While Redis is down every claim fails at once; the dispatch loop (which the timer route calls back to back) must
 * back off instead of spinning: a handful of rounds in three seconds, not thousands.
 */
class DispatcherBackoffTest {

    @Test
    void loopBacksOffWhileRedisIsDown() throws Exception {
        try (RedisConnection nowhere = new RedisConnection("redis://127.0.0.1:" + FreePorts.next(), Duration.ofMillis(500))) {
            StoreFaces store = StoreFaces.over(nowhere.async(), new Keys("backoff", 1), new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
            Dispatcher dispatcher = new Dispatcher(store.dispatch(), (envelope, target, dueAt) -> CompletableFuture.completedFuture(null),
                    new DeadLetters(null, store.ingest(), store.dispatch(), 1 << 20, BridgeMetrics.standalone()), new RetryPolicy(1_000, 2, 60_000, 86_400_000, 0), new DispatchSettings(100, 1_000, 100, 60_000, 20_000, 500, 2_500, 50),
                    () -> false, BridgeMetrics.standalone());
            int rounds = 0;
            long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
            while (System.nanoTime() < end) {
                dispatcher.dispatchDueMessages(); // as the timer route does, back to back
                rounds++;
            }
            dispatcher.close();
            // 50, 100, 200, 400, 800, 1000+ ms: about 7 rounds; a spinning loop makes thousands
            assertThat(rounds).isBetween(3, 15);
        }
    }
}
