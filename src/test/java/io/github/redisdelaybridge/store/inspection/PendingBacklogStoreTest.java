package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The browsable backlog against the real Redis: pending messages filtered by due range and target glob
 * ({@code listPending.lua}), paged by cursor over many slots while messages come and go, and their totals
 * ({@code countPending.lua}).
 */
class PendingBacklogStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-backlog");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;

    @Test
    void theDueRangeIncludesDueAfterAndExcludesDueBefore() throws Exception {
        StoreFaces store = storeWith(4);
        for (long due : List.of(999L, 1_000L, 1_001L, 1_999L, 2_000L, 2_001L)) {
            schedule(store, "at-" + due, due, "kafka:out");
        }

        assertThat(ids(store, new PendingFilter(1_000L, 2_000L, null))).containsExactly("at-1000", "at-1001", "at-1999");
        assertThat(ids(store, new PendingFilter(2_000L, null, null))).containsExactly("at-2000", "at-2001");
        assertThat(ids(store, new PendingFilter(null, 1_000L, null))).containsExactly("at-999");
        assertThat(ids(store, new PendingFilter(2_002L, null, null))).isEmpty();
        assertThat(await(store.inspection().countPending(new PendingFilter(1_000L, 2_000L, null))))
                .isEqualTo(new PendingTotals(3, 3, true));
        assertThat(await(store.inspection().countPending(PendingFilter.EVERY))).isEqualTo(new PendingTotals(6, 6, true));
    }

    @Test
    void theTargetFilterIsAGlobOrOneExactTarget() throws Exception {
        StoreFaces store = storeWith(3);
        List<String> targets = List.of("kafka:orders.created.eu", "kafka:orders.created.us", "kafka:orders.expired", "rabbitmq:orders/eu",
                "kafka:aba", "kafka:orders");
        for (int i = 0; i < targets.size(); i++) {
            schedule(store, "t-" + i, 1_000L + i, targets.get(i));
        }

        Map<String, List<String>> expected = Map.of(
                "kafka:orders.*", List.of("t-0", "t-1", "t-2"),
                "*.eu", List.of("t-0"),
                "*eu", List.of("t-0", "t-3"),
                "kafka:orders.*.eu", List.of("t-0"),
                "*", List.of("t-0", "t-1", "t-2", "t-3", "t-4", "t-5"),
                "kafka:orders", List.of("t-5"),
                "kafka:ab*ba", List.of(),
                "kafka:*a*a", List.of("t-4"),
                "**orders**created*", List.of("t-0", "t-1"),
                "rabbitmq:*", List.of("t-3"));
        for (Map.Entry<String, List<String>> glob : expected.entrySet()) {
            PendingFilter filter = new PendingFilter(null, null, glob.getKey());
            assertThat(ids(store, filter)).as(glob.getKey()).containsExactlyElementsOf(glob.getValue());
            assertThat(await(store.inspection().countPending(filter))).as(glob.getKey() + " totals")
                    .isEqualTo(new PendingTotals(targets.size(), glob.getValue().size(), true));
        }
    }

    @Test
    void aCursorPagesThroughManySlotsWithoutDuplicatesOrGapsWhileMessagesComeAndGo() throws Exception {
        pageThroughWhileMessagesComeAndGo(storeWith(8));
    }

    @Test
    void onARedisClusterTheSlotsOfEveryMasterArePagedAndCountedAsOne() throws Exception {
        try (RedisClusterProcesses cluster = new RedisClusterProcesses(3);
             RedisConnection connection = new RedisConnection(RedisConnection.uris(cluster.uris()), true, Duration.ofMillis(5_000))) {
            StoreFaces store = StoreFaces.over(connection.async(), new Keys("backlog-cluster", 9),
                    new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
            Set<Integer> masters = new HashSet<>();
            for (int slot = 0; slot < 9; slot++) {
                masters.add(cluster.portOwning(store.keys().due(slot)));
            }
            assertThat(masters).as("the slots are spread over every master").hasSize(3);

            pageThroughWhileMessagesComeAndGo(store);
            assertThat(await(store.inspection().countPending(PendingFilter.EVERY)).inDueRange()).as("the slots of every master counted")
                    .isEqualTo(await(store.inspection().stats()).pending()).isGreaterThan(600);
        }
    }

    private static void pageThroughWhileMessagesComeAndGo(StoreFaces store) throws Exception {
        PendingFilter filter = new PendingFilter(10_000L, 900_000L, "kafka:keep.*");
        List<ScheduleRequest> initial = new ArrayList<>();
        Set<String> expected = new LinkedHashSet<>();
        for (int i = 0; i < 600; i++) {
            // ties: five messages share each due time, spread over the slots; every third is for a target filtered out
            long due = 10_000L + (i / 5) * 1_000L;
            String target = i % 3 == 0 ? "kafka:skip.me" : "kafka:keep." + (i % 7);
            initial.add(request("m-" + i, due, target));
            if (i % 3 != 0) {
                expected.add("m-" + i);
            }
        }
        initial.add(request("early", 9_999L, "kafka:keep.0"));
        initial.add(request("late", 900_000L, "kafka:keep.0"));
        await(store.ingest().schedule(initial));

        List<String> listed = new ArrayList<>();
        List<Long> dues = new ArrayList<>();
        ListPosition cursor = null;
        for (int page = 0; page < 1_000; page++) {
            Listing<PendingEntry> listing = await(store.inspection().listPending(cursor, filter, 37));
            listing.entries().forEach(entry -> {
                listed.add(entry.messageId());
                dues.add(entry.dueAt());
            });
            if (listing.next() == null) {
                break;
            }
            cursor = listing.next();
            // while the operator pages: one message behind the cursor (never listed), one ahead (listed once),
            // one ahead for another target (never listed), and one not listed yet cancelled (never listed)
            long at = cursor.score();
            await(store.ingest().schedule(List.of(request("behind-" + page, at - 1, "kafka:keep.1"),
                    request("ahead-" + page, at + 1_500 + page, "kafka:keep.2"), request("other-" + page, at + 1_500, "kafka:skip.me"))));
            if (at + 1_500 + page < 900_000L) {
                expected.add("ahead-" + page);
            }
            String toCancel = expected.stream().filter(id -> id.startsWith("m-") && !listed.contains(id)).reduce((a, b) -> b).orElse(null);
            if (toCancel != null) {
                await(store.ingest().cancel(toCancel, false));
                expected.remove(toCancel);
            }
        }

        assertThat(listed).doesNotHaveDuplicates();
        assertThat(listed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(dues).isSorted();
        assertThat(listed).noneMatch(id -> id.startsWith("behind-") || id.startsWith("other-") || id.equals("early") || id.equals("late"));
    }

    @Test
    void totalsCountTheRangeExactlyAndEstimateTheTargetFromASampleWhenASlotHoldsMore() throws Exception {
        StoreFaces store = storeWith(2);
        List<ScheduleRequest> requests = new ArrayList<>();
        int count = InspectionStore.COUNT_SAMPLE_SIZE * 3;
        for (int i = 0; i < count; i++) {
            requests.add(request(String.format("m-%05d", i), 1_000L + i, i % 4 == 0 ? "kafka:rare" : "kafka:common"));
        }
        await(store.ingest().schedule(requests));

        PendingTotals everything = await(store.inspection().countPending(new PendingFilter(null, null, "kafka:rare")));
        PendingTotals narrow = await(store.inspection().countPending(new PendingFilter(1_000L, 1_800L, "kafka:rare")));
        PendingTotals none = await(store.inspection().countPending(new PendingFilter(null, null, "kafka:nowhere")));

        assertThat(everything.inDueRange()).isEqualTo(count);
        assertThat(everything.exact()).as("more in range than a slot reads: estimated").isFalse();
        assertThat(everything.matching()).isBetween(count / 4 - 75L, count / 4 + 75L);
        assertThat(narrow).isEqualTo(new PendingTotals(800, 200, true));
        assertThat(none.matching()).isZero();
        assertThat(none.inDueRange()).isEqualTo(count);
    }

    private static List<String> ids(StoreFaces store, PendingFilter filter) throws Exception {
        List<String> ids = new ArrayList<>();
        ListPosition cursor = null;
        do {
            Listing<PendingEntry> page = await(store.inspection().listPending(cursor, filter, 2));
            page.entries().forEach(entry -> ids.add(entry.messageId()));
            cursor = page.next();
        } while (cursor != null);
        return ids;
    }

    private StoreFaces storeWith(int slots) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), slots),
                new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
    }

    private static void schedule(StoreFaces store, String id, long due, String target) throws Exception {
        await(store.ingest().schedule(List.of(request(id, due, target))));
    }

    private static ScheduleRequest request(String id, long due, String target) {
        return new ScheduleRequest(id, new DueTime.At(due), new Envelope(id, target, "kafka:in/0@1", null,
                List.of(MessageHeader.text("h", "v")), Map.of(), bytes("body of " + id)));
    }
}
