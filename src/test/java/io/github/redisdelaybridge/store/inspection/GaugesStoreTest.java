package io.github.redisdelaybridge.store.inspection;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code gauges.lua} through {@code InspectionStore#gauges} against the real Redis: each gauge, summed over slots. */
class GaugesStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-gauges");

    private static final long OVERDUE_THRESHOLD_MS = 2_000;

    @Test
    void countsEachStateAndWindowOverEverySlot() throws Exception {
        StoreFaces store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 3),
                new StoreLimits(365L * 86_400_000, 60_000, 60_000, 1_000, 60_000));
        long now = redisNow(store);
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            requests.add(request("overdue-" + i, new DueTime.At(now - 10_000 - i))); // overdue, the oldest 10 s and more
        }
        requests.add(request("due-not-overdue", new DueTime.At(now - 500))); // due, within the threshold
        for (int i = 0; i < 2; i++) {
            requests.add(request("in-30s-" + i, new DueTime.At(now + 30_000)));
        }
        requests.add(request("in-5min", new DueTime.At(now + 300_000)));
        requests.add(request("in-30min", new DueTime.At(now + 1_800_000)));
        requests.add(request("in-2h", new DueTime.At(now + 7_200_000)));
        await(store.ingest().schedule(requests));
        await(store.ingest().storeDeadLetters(Map.of("dead-1", new byte[] {1}, "dead-2", new byte[] {2})));

        StoreGauges gauges = await(store.inspection().gauges(OVERDUE_THRESHOLD_MS));

        assertThat(gauges.pending()).isEqualTo(9);
        assertThat(gauges.inFlight()).isZero();
        assertThat(gauges.overdue()).isEqualTo(3);
        assertThat(gauges.oldestOverdueMs()).isBetween(10_002L, 60_000L);
        assertThat(gauges.anyDue()).isTrue();
        assertThat(gauges.dueSoon()).containsExactly(2, 3, 4);
        assertThat(gauges.dead()).isEqualTo(2);

        int claimed = 0;
        for (int slot = 0; slot < 3; slot++) {
            claimed += await(store.dispatch().claim(slot, 100, 60_000)).messages().size();
        }
        StoreGauges afterClaim = await(store.inspection().gauges(OVERDUE_THRESHOLD_MS));
        assertThat(claimed).as("the four due ones").isEqualTo(4);
        assertThat(afterClaim.pending()).isEqualTo(5);
        assertThat(afterClaim.inFlight()).isEqualTo(4);
        assertThat(afterClaim.overdue()).isZero();
        assertThat(afterClaim.oldestOverdueMs()).isZero();
        assertThat(afterClaim.anyDue()).isFalse();
    }

    @Test
    void anEmptyStoreHasNothingDue() throws Exception {
        StoreFaces store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 2),
                new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));

        StoreGauges gauges = await(store.inspection().gauges(OVERDUE_THRESHOLD_MS));

        assertThat(gauges.pending()).isZero();
        assertThat(gauges.oldestDue()).isEqualTo(-1);
        assertThat(gauges.oldestOverdueMs()).isZero();
        assertThat(gauges.anyDue()).isFalse();
        assertThat(gauges.dueSoon()).containsExactly(0, 0, 0);
    }

    private static long redisNow(StoreFaces store) throws Exception {
        return await(store.inspection().gauges(0)).redisNow();
    }

    private static ScheduleRequest request(String id, DueTime dueTime) {
        return new ScheduleRequest(id, dueTime, new Envelope(id, "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(),
                ("body of " + id).getBytes(StandardCharsets.UTF_8)));
    }

    private static <T> T await(CompletableFuture<T> future) throws Exception {
        return future.get(10, TimeUnit.SECONDS);
    }
}
