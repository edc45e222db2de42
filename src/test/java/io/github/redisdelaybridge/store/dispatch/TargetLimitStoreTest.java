package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The store's side of the target patterns' controls, against a real Redis: one token bucket shared by two instances (two
 * connections, two stores), and messages given back over a rate limit keeping their original due times.
 */
class TargetLimitStoreTest {

    private static final String PREFIX = "test-target-limits";

    private final Keys keys = new Keys(PREFIX, 2);
    private RedisConnection first;
    private RedisConnection second;
    private RedisClient inspectorClient;
    private StatefulRedisConnection<String, String> inspector;

    @BeforeEach
    void connect() {
        LocalRedis.deleteKeys(PREFIX);
        first = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(5));
        second = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(5));
        inspectorClient = RedisClient.create(LocalRedis.URI);
        inspector = inspectorClient.connect();
    }

    @AfterEach
    void disconnect() {
        LocalRedis.deleteKeys(PREFIX);
        inspector.close();
        inspectorClient.shutdown();
        first.close();
        second.close();
    }

    @Test
    void twoInstancesSharingABucketTogetherStayWithinItsRate() throws Exception {
        DispatchStore one = store(first).dispatch();
        DispatchStore two = store(second).dispatch();
        int rate = 400;
        long runMs = 2_000;
        AtomicLong granted = new AtomicLong();
        long start = System.nanoTime();
        List<CompletableFuture<Void>> askers = List.of(one, two).stream().map(store -> CompletableFuture.runAsync(() -> {
            while (System.nanoTime() - start < runMs * 1_000_000) {
                granted.addAndGet(store.takeTokens("orders", rate, 50).join().granted());
            }
        })).toList();
        CompletableFuture.allOf(askers.toArray(CompletableFuture[]::new)).join();
        long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        // a tenth of a second's burst at the start, then the rate: both instances asking as fast as they can get no more
        long most = rate / 10 + Math.round(rate * elapsedMs / 1000.0) + 5;
        assertThat(granted.get()).as("tokens granted to both in %d ms at %d/s", elapsedMs, rate).isLessThanOrEqualTo(most)
                .isGreaterThanOrEqualTo(Math.round(rate * runMs / 1000.0 * 0.8));
        assertThat(inspector.sync().pttl(keys.tokenBucket("orders"))).as("the bucket expires once full").isPositive();
    }

    @Test
    void aDeferredMessageKeepsItsOriginalDueTimeUntilItIsSettled() {
        StoreFaces store = store(first);
        Envelope envelope = new Envelope("m-1", "kafka:orders", "kafka:in/0@1", null, List.of(), Map.of(), "body".getBytes());
        store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.AfterDelay(0), envelope))).join();
        int slot = keys.slotOf("m-1");
        ClaimedMessage claimed = store.dispatch().claim(slot, 10, 60_000).join().messages().get(0);
        assertThat(claimed.originalDueAt()).as("not moved yet").isEqualTo(claimed.dueAt());
        assertThat(inspector.sync().exists(keys.originalDue(slot))).as("an unmoved message costs no memory").isZero();

        long given = store.dispatch().defer(slot, List.of(new DeferClaimedScript.Deferral(claimed, 150))).join();
        assertThat(given).isEqualTo(1);
        assertThat(store.dispatch().claim(slot, 10, 60_000).join().messages()).as("not due again before its delay").isEmpty();
        ClaimedMessage again = awaitClaim(store, slot);
        assertThat(again.dueAt()).as("its score moved").isGreaterThanOrEqualTo(claimed.dueAt() + 150);
        assertThat(again.originalDueAt()).as("its original due time, for x-delay-due-at").isEqualTo(claimed.dueAt());

        // deferred a second time: still the first due time
        store.dispatch().defer(slot, List.of(new DeferClaimedScript.Deferral(again, 0))).join();
        ClaimedMessage third = awaitClaim(store, slot);
        assertThat(third.originalDueAt()).isEqualTo(claimed.dueAt());

        assertThat(store.dispatch().acknowledge(slot, List.of(third)).join()).isEqualTo(1);
        assertThat(inspector.sync().exists(keys.originalDue(slot))).as("deleted with the message").isZero();
    }

    @Test
    void aDeferredMessageCancelledOrGivenANewDueTimeLeavesNoOriginalDueTimeBehind() {
        StoreFaces store = store(first);
        List<String> ids = List.of("to-cancel", "to-move", "to-replace", "group-cancel", "group-move");
        for (String id : ids) {
            List<MessageHeader> headers = id.startsWith("group-") ? List.of(MessageHeader.text(HeaderNames.GROUP, id)) : List.of();
            Envelope envelope = new Envelope(id, "kafka:orders", "kafka:in/0@1", null, headers, Map.of(), "body".getBytes());
            store.ingest().schedule(List.of(new ScheduleRequest(id, new DueTime.AfterDelay(0), envelope))).join();
            int slot = keys.slotOf(id);
            ClaimedMessage claimed = store.dispatch().claim(slot, 10, 60_000).join().messages().get(0);
            store.dispatch().defer(slot, List.of(new DeferClaimedScript.Deferral(claimed, 60_000))).join();
            assertThat(inspector.sync().hexists(keys.originalDue(slot), id)).as(id + " deferred").isTrue();
        }

        store.ingest().cancel("to-cancel", false).join();
        store.ingest().changeDueTime("to-move", new DueTime.AfterDelay(30_000)).join();
        store.ingest().replace(new ScheduleRequest("to-replace", new DueTime.AfterDelay(30_000),
                new Envelope("to-replace", "kafka:orders", "kafka:in/0@1", null, List.of(), Map.of(), "new".getBytes()))).join();
        store.ingest().cancelGroup("group-cancel", false).join();
        store.ingest().rescheduleGroup("group-move", new DueTime.AfterDelay(30_000), false).join();

        assertThat(inspector.sync().exists(keys.originalDue(0), keys.originalDue(1)))
                .as("a cancel, a new due time, a replacement, a group's cancel or new due time drop the kept due time").isZero();
    }

    private static ClaimedMessage awaitClaim(StoreFaces store, int slot) {
        long deadline = System.currentTimeMillis() + 5_000;
        while (System.currentTimeMillis() < deadline) {
            List<ClaimedMessage> messages = store.dispatch().claim(slot, 10, 60_000).join().messages();
            if (!messages.isEmpty()) {
                return messages.get(0);
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the deferred message never came due again");
    }

    private StoreFaces store(RedisConnection connection) {
        return StoreFaces.over(connection.async(), keys, new StoreLimits(86_400_000, 60_000, 60_000, 10, 60_000));
    }
}
