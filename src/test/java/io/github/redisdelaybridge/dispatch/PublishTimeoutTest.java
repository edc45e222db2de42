package io.github.redisdelaybridge.dispatch;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.deadletter.DeadLetters;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.metrics.BridgeMetrics;
import io.github.redisdelaybridge.outbound.TargetPublisher;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.inspection.StoreStats;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A publish whose broker never answers (neither ack nor error) fails after the publish timeout and the message is
 * retried with one attempt counted; the retry that the broker acknowledges removes it from Redis. The real dispatch
 * loop on the local Redis; the publisher stands in for a broker that swallows the first publish (the broker-level
 * versions of this are the outage tests under fault/).
 */
class PublishTimeoutTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-publish-timeout");

    private static final long PUBLISH_TIMEOUT_MS = 600;

    @Test
    void aPublishNeverAnsweredTimesOutAndIsRetriedUntilDelivered() throws Exception {
        StoreFaces store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 1),
                new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
        await(store.ingest().schedule(List.of(new ScheduleRequest("timeout-1", new DueTime.At(1_000),
                new Envelope("timeout-1", "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(), bytes("body"))))));
        List<Long> publishedAt = new CopyOnWriteArrayList<>();
        TargetPublisher firstSwallowed = (envelope, target, dueAt) -> {
            publishedAt.add(System.currentTimeMillis());
            return publishedAt.size() == 1 ? new CompletableFuture<>() : CompletableFuture.completedFuture(null);
        };
        BridgeMetrics metrics = BridgeMetrics.standalone();
        Dispatcher dispatcher = new Dispatcher(store.dispatch(), firstSwallowed, new DeadLetters(null, store.ingest(), store.dispatch(), 1 << 20, metrics),
                new RetryPolicy(100, 2, 1_000, 86_400_000, 0),
                new DispatchSettings(100, 1_000, 50, 60_000, PUBLISH_TIMEOUT_MS, 2_000, 2_500, 50), () -> false, metrics);
        try {
            StoreStats stats = await(store.inspection().stats());
            long until = System.currentTimeMillis() + 15_000;
            while (System.currentTimeMillis() < until && (publishedAt.size() < 2 || stats.pending() + stats.inFlight() > 0)) {
                dispatcher.dispatchDueMessages(); // as the timer route does, back to back
                stats = await(store.inspection().stats());
            }
            assertThat(publishedAt).as("the swallowed publish, then its retry").hasSize(2);
            assertThat(publishedAt.get(1) - publishedAt.get(0)).as("the retry came after the publish timeout, not before")
                    .isGreaterThanOrEqualTo(PUBLISH_TIMEOUT_MS * 9 / 10);
            assertThat(stats.pending() + stats.inFlight()).as("delivered on the retry: gone from Redis").isZero();
            assertThat(stats.dead()).as("nothing dead-lettered").isZero();
        } finally {
            dispatcher.close();
        }
    }
}
