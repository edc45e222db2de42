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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Messages are claimed {@code claimAheadMs} before they are due, held, and published at their due time: never before it.
 * The real dispatch loop on the local Redis (whose clock is this machine's); the publisher records when each message
 * reaches it (the broker-level lateness is the benchmark's, the end-to-end never-early check KafkaToKafkaDeliveryTest's).
 */
class ClaimAheadTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-claim-ahead");

    private static final long CLAIM_AHEAD_MS = 300;
    private static final int MESSAGES = 20;

    @Test
    void messagesAreClaimedAheadAndPublishedAtTheirDueTimeNeverBefore() throws Exception {
        StoreFaces store = storeWithSlots(2);
        long firstDue = System.currentTimeMillis() + 1_500;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            String id = "ahead-" + i;
            requests.add(request(id, firstDue + i * 37L, "kafka:out", i));
        }
        await(store.ingest().schedule(requests));
        Map<String, Long> publishedAt = new ConcurrentHashMap<>();
        Map<String, Long> dueAt = new ConcurrentHashMap<>();
        TargetPublisher recorder = (envelope, target, due) -> {
            publishedAt.put(envelope.messageId(), System.currentTimeMillis());
            dueAt.put(envelope.messageId(), due);
            return CompletableFuture.completedFuture(null);
        };
        BridgeMetrics metrics = BridgeMetrics.standalone();
        Dispatcher dispatcher = dispatcher(store, recorder, metrics, 5_000, 2_500, CLAIM_AHEAD_MS);
        AtomicBoolean stop = new AtomicBoolean();
        Thread loop = new Thread(() -> {
            try {
                while (!stop.get()) {
                    dispatcher.dispatchDueMessages(); // as the timer route does, back to back
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "claim-ahead-test-loop");
        loop.start();
        try {
            sleepUntil(firstDue - CLAIM_AHEAD_MS / 3);
            StoreStats beforeDue = await(store.inspection().stats());
            boolean nothingPublishedYet = publishedAt.isEmpty();
            assertThat(beforeDue.inFlight()).as("%d ms before the first due time, the messages due within the claim-ahead are claimed",
                    firstDue - System.currentTimeMillis()).isPositive();
            assertThat(nothingPublishedYet).as("and held: none published before it is due").isTrue();

            long until = System.currentTimeMillis() + 15_000;
            while (System.currentTimeMillis() < until && publishedAt.size() < MESSAGES) {
                Thread.sleep(20);
            }
            assertThat(publishedAt).as("every message published").hasSize(MESSAGES);
            publishedAt.forEach((id, at) -> {
                assertThat(at).as("%s published at or after its due time", id).isGreaterThanOrEqualTo(dueAt.get(id));
                assertThat(at - dueAt.get(id)).as("%s published soon after its due time (generous bound)", id).isLessThan(1_000);
            });
            StoreStats after = await(store.inspection().stats());
            while (System.currentTimeMillis() < until && after.inFlight() > 0) {
                Thread.sleep(20);
                after = await(store.inspection().stats());
            }
            assertThat(after.pending() + after.inFlight()).as("all acknowledged: gone from Redis").isZero();
        } finally {
            stop.set(true);
            loop.join(5_000);
            dispatcher.close();
        }
    }

    @Test
    void aHoldLongerThanThePublishTimeoutDoesNotTimeTheMessageOut() throws Exception {
        StoreFaces store = storeWithSlots(1);
        long dueAt = System.currentTimeMillis() + 1_500;
        await(store.ingest().schedule(List.of(request("held-long", dueAt, "kafka:out", 1))));
        List<Long> publishedAt = new java.util.concurrent.CopyOnWriteArrayList<>();
        TargetPublisher recorder = (envelope, target, due) -> {
            publishedAt.add(System.currentTimeMillis());
            return CompletableFuture.completedFuture(null);
        };
        io.micrometer.core.instrument.simple.SimpleMeterRegistry registry = new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
        BridgeMetrics metrics = new BridgeMetrics(registry);
        // held up to 800 ms, publish timeout 200 ms: the hold must not count against the broker's time
        Dispatcher dispatcher = dispatcher(store, recorder, metrics, 200, 2_500, 800);
        try {
            long until = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < until && publishedAt.isEmpty()) {
                dispatcher.dispatchDueMessages(); // as the timer route does, back to back
            }
            assertThat(publishedAt).as("published once, when due").hasSize(1);
            assertThat(publishedAt.get(0)).as("not before its due time (a hold timed out and given back comes back earlier)")
                    .isGreaterThanOrEqualTo(dueAt);
            assertThat(registry.get("bridge.publish.deferred").counter().count()).as("never given back as not sent").isZero();
        } finally {
            dispatcher.close();
        }
    }

    @Test
    void aMessageClaimedAheadAndNotSentGoesBackNoEarlierThanItWasDue() throws Exception {
        StoreFaces store = storeWithSlots(1);
        long laterDue = System.currentTimeMillis() + 1_200;
        await(store.ingest().schedule(List.of(request("first", 1_000, "kafka:slow", 1), request("later", laterDue, "kafka:slow", 2))));
        Map<String, Long> publishedAt = new ConcurrentHashMap<>();
        java.util.concurrent.ScheduledExecutorService broker = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        // the target's broker answers its first publish only after 500 ms; until then, with one message allowed in flight for a
        // target not answering, the message claimed ahead is refused and given back (not sent, no attempt counted)
        TargetPublisher slowFirstAnswer = (envelope, target, due) -> {
            publishedAt.put(envelope.messageId(), System.currentTimeMillis());
            CompletableFuture<Void> answer = new CompletableFuture<>();
            broker.schedule(() -> answer.complete(null), envelope.messageId().equals("first") ? 500 : 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            return answer;
        };
        BridgeMetrics metrics = BridgeMetrics.standalone();
        Dispatcher dispatcher = dispatcher(store, slowFirstAnswer, metrics, 5_000, 1, 1_000);
        try {
            long until = System.currentTimeMillis() + 10_000;
            while (System.currentTimeMillis() < until && !publishedAt.containsKey("later")) {
                dispatcher.dispatchDueMessages(); // as the timer route does, back to back
            }
            assertThat(publishedAt).as("both published").containsKeys("first", "later");
            assertThat(publishedAt.get("later")).as("given back while held, it came back no earlier than it was due")
                    .isGreaterThanOrEqualTo(laterDue);
        } finally {
            dispatcher.close();
            broker.shutdownNow();
        }
    }

    private static StoreFaces storeWithSlots(int slots) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), slots), new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
    }

    /** A message for {@code target}, due at {@code dueAt}, from inbound offset {@code offset}. */
    private static ScheduleRequest request(String id, long dueAt, String target, long offset) {
        return new ScheduleRequest(id, new DueTime.At(dueAt), new Envelope(id, target, "kafka:in/0@" + offset, null, List.of(), Map.of(), bytes("body")));
    }

    /** A dispatcher with rounds of 100, a 60 s lease and no stopping, with the settings each test is about. */
    private static Dispatcher dispatcher(StoreFaces store, TargetPublisher publisher, BridgeMetrics metrics, long publishTimeoutMs,
                                         int maxInFlightPerTarget, long claimAheadMs) {
        return new Dispatcher(store.dispatch(), publisher, new DeadLetters(null, store.ingest(), store.dispatch(), 1 << 20, metrics), new RetryPolicy(100, 2, 1_000, 86_400_000, 0),
                new DispatchSettings(100, 1_000, 100, 60_000, publishTimeoutMs, 2_000, maxInFlightPerTarget, claimAheadMs), () -> false, metrics);
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long wait = epochMs - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }
}
