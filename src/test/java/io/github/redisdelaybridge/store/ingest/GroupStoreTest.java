package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.HeaderNames;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.inspection.GroupEntry;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The group index (lua/lib/groups) and cancelGroup.lua / rescheduleGroup.lua, against the real Redis. */
class GroupStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-groups");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;
    private static final int SLOTS = 4;

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), SLOTS),
                new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
    }

    @Test
    void aGroupedMessageIsIndexedUnderItsGroupAndAnUngroupedOneNowhere() throws Exception {
        schedule("g-1", "order-42", new DueTime.At(1_000));
        schedule("plain", null, new DueTime.At(1_000));

        int slot = store.keys().slotOf("g-1");
        assertThat(zrange(store.keys().groupIndex(slot, "order-42"))).containsExactly("g-1");
        assertThat(groupKeys()).as("no index key beyond the group's").containsExactly(store.keys().groupIndex(slot, "order-42"));
    }

    @Test
    void theScriptsFindTheGroupAmongTypedHeadersAfterAKeyAndAnOriginNumber() throws Exception {
        List<MessageHeader> headers = List.of(MessageHeader.amqp("count", 42), MessageHeader.text("trace", "t-1"),
                MessageHeader.amqp(HeaderNames.GROUP, "amqp group"), MessageHeader.amqp("after", 1.5));
        Envelope envelope = new Envelope("typed", "rabbitmq:/out", "rabbitmq:in.q/0@77", bytes("key"), headers, Map.of("priority", "5"),
                bytes("body"));
        await(store.ingest().schedule(List.of(new ScheduleRequest("typed", new DueTime.AfterDelay(60_000), envelope))));

        assertThat(zrange(indexKeyOf("typed", "amqp group"))).containsExactly("typed");
        DueTimeChange change = await(store.ingest().changeDueTime("typed", new DueTime.AfterDelay(120_000)));
        assertThat(zscore(indexKeyOf("typed", "amqp group"), "typed")).as("a reschedule moves the index too").isEqualTo(change.dueAt());
        assertThat(await(store.ingest().cancel("typed", false))).isEqualTo(CancelOutcome.WITHDRAWN);
        assertThat(groupKeys()).isEmpty();
    }

    @Test
    void acknowledgeCancelAndDeadLetterCleanTheIndex() throws Exception {
        schedule("acked", "g", new DueTime.At(1_000));
        schedule("dead", "g", new DueTime.At(1_000));
        schedule("cancelled", "g", new DueTime.AfterDelay(60_000));

        await(store.ingest().cancel("cancelled", false));
        for (ClaimedMessage message : claimAll()) {
            if (message.messageId().equals("acked")) {
                await(store.dispatch().acknowledge(message.slot(), List.of(message)));
            } else {
                await(store.dispatch().deadLetter(message, new byte[] {1}));
            }
        }

        assertThat(groupKeys()).as("every index emptied, so its key is gone").isEmpty();
    }

    @Test
    void cancelGroupWithdrawsEveryPendingMemberAcrossSlotsAndReportsTheInFlightOnes() throws Exception {
        for (int i = 0; i < 1_200; i++) {
            schedule("later-" + i, "big", new DueTime.AfterDelay(60_000));
        }
        schedule("now", "big", new DueTime.At(1_000));
        schedule("other", "small", new DueTime.AfterDelay(60_000));
        List<ClaimedMessage> claimed = claimAll();
        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactly("now");

        GroupOutcome dryRun = await(store.ingest().cancelGroup("big", true));
        assertThat(dryRun).isEqualTo(new GroupOutcome(1_200, 1, -1, false));
        assertThat(indexSize("big")).as("a dry run changes nothing").isEqualTo(1_201);

        GroupOutcome outcome = await(store.ingest().cancelGroup("big", false));

        assertThat(outcome).isEqualTo(new GroupOutcome(1_200, 1, -1, false));
        assertThat(indexSize("big")).as("only the one in flight stays indexed").isEqualTo(1);
        assertThat(await(store.inspection().inspect("later-7")).state().name()).isEqualTo("CANCELLED");
        assertThat(await(store.inspection().inspect("other")).state().name()).isEqualTo("PENDING");
        assertThat(await(store.ingest().cancel("now", false))).as("left alone").isEqualTo(CancelOutcome.IN_FLIGHT);
        assertThat(await(store.ingest().cancelGroup("big", false))).as("nothing left to cancel")
                .isEqualTo(new GroupOutcome(0, 1, -1, false));
    }

    @Test
    void rescheduleGroupMovesEveryPendingMemberToOneDueTime() throws Exception {
        for (int i = 0; i < 1_100; i++) {
            schedule("m-" + i, "batch", new DueTime.At(1_000_000_000_000L + i * 7L % 1_000));
        }
        long target = redisNowMs() + 120_000;
        schedule("already", "batch", new DueTime.At(target));

        GroupOutcome dryRun = await(store.ingest().rescheduleGroup("batch", new DueTime.At(target), true));
        assertThat(dryRun.changed()).isEqualTo(1_101);
        assertThat(zscore(indexKeyOf("m-3", "batch"), "m-3")).as("a dry run changes nothing").isEqualTo(1_000_000_000_021L);

        GroupOutcome outcome = await(store.ingest().rescheduleGroup("batch", new DueTime.At(target), false));

        assertThat(outcome).isEqualTo(new GroupOutcome(1_101, 0, target, false));
        for (String id : List.of("m-0", "m-3", "m-1099", "already")) {
            assertThat(zscore(store.keys().due(store.keys().slotOf(id)), id)).as(id).isEqualTo(target);
            assertThat(zscore(indexKeyOf(id, "batch"), id)).as(id + " in the index").isEqualTo(target);
        }
        assertThat(claimAll()).as("none is due any more").isEmpty();
    }

    @Test
    void aRescheduleBeyondTheMaximumDelayChangesNothing() throws Exception {
        schedule("m-1", "g", new DueTime.At(1_000));

        GroupOutcome outcome = await(store.ingest().rescheduleGroup("g", new DueTime.AfterDelay(MAX_DELAY_MS + 60_000), false));

        assertThat(outcome.tooLate()).isTrue();
        assertThat(zscore(store.keys().due(store.keys().slotOf("m-1")), "m-1")).isEqualTo(1_000L);
    }

    @Test
    void aStaleIndexEntryIsDroppedNeverBroughtBack() throws Exception {
        int slot = store.keys().slotOf("ghost");
        redis.connection().async().zadd(bytes(store.keys().groupIndex(slot, "g")), 1_000, bytes("ghost")).get(10, TimeUnit.SECONDS);

        assertThat(await(store.ingest().rescheduleGroup("g", new DueTime.AfterDelay(1_000), false)).changed()).isZero();
        assertThat(await(store.ingest().cancelGroup("g", false)).changed()).isZero();

        assertThat(zscore(store.keys().due(slot), "ghost")).isNull();
        assertThat(groupKeys()).isEmpty();
    }

    @Test
    void listGroupPagesTheGroupInDueOrderAcrossSlots() throws Exception {
        for (int i = 0; i < 30; i++) {
            schedule("m-" + i, "listed", new DueTime.AfterDelay(60_000 + (29 - i) * 1_000L));
        }
        schedule("first", "listed", new DueTime.At(1_000));
        schedule("elsewhere", "other", new DueTime.AfterDelay(60_000));
        assertThat(claimAll()).extracting(ClaimedMessage::messageId).containsExactly("first");

        List<GroupEntry> seen = new ArrayList<>();
        ListPosition after = null;
        do {
            Listing<GroupEntry> page = await(store.inspection().listGroup("listed", after, 7));
            assertThat(page.entries().size()).isLessThanOrEqualTo(7);
            seen.addAll(page.entries());
            after = page.next();
        } while (after != null);

        assertThat(seen).extracting(GroupEntry::messageId).hasSize(31).startsWith("first", "m-29", "m-28").endsWith("m-0");
        assertThat(seen.get(0).inFlight()).isTrue();
        assertThat(seen.get(1).inFlight()).isFalse();
        assertThat(seen).extracting(GroupEntry::dueAt).isSorted();
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private void schedule(String id, String group, DueTime dueTime) throws Exception {
        List<MessageHeader> headers = group == null ? List.of() : List.of(MessageHeader.text(HeaderNames.GROUP, group));
        Envelope envelope = new Envelope(id, "kafka:out", "kafka:in/0@1", null, headers, Map.of(), bytes("body of " + id));
        ScheduleResult result = await(store.ingest().schedule(List.of(new ScheduleRequest(id, dueTime, envelope)))).get(0);
        assertThat(result.outcome()).as(id).isEqualTo(ScheduleResult.Outcome.SCHEDULED);
    }

    private List<ClaimedMessage> claimAll() throws Exception {
        List<ClaimedMessage> claimed = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            claimed.addAll(await(store.dispatch().claim(slot, 100, 60_000)).messages());
        }
        return claimed;
    }

    private String indexKeyOf(String id, String group) {
        return store.keys().groupIndex(store.keys().slotOf(id), group);
    }

    private long indexSize(String group) throws Exception {
        long size = 0;
        for (int slot = 0; slot < SLOTS; slot++) {
            size += redis.connection().async().zcard(bytes(store.keys().groupIndex(slot, group))).get(10, TimeUnit.SECONDS);
        }
        return size;
    }

    private List<String> groupKeys() throws Exception {
        return redis.connection().async().keys(bytes(redis.prefix() + ":*:group:*")).get(10, TimeUnit.SECONDS).stream()
                .map(String::new).sorted().toList();
    }

    private static Long zscore(String key, String member) throws Exception {
        Double score = redis.connection().async().zscore(bytes(key), bytes(member)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }

    private static List<String> zrange(String key) throws Exception {
        return redis.connection().async().zrange(bytes(key), 0, -1).get(10, TimeUnit.SECONDS).stream().map(String::new).toList();
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(new String(time.get(0))) * 1_000 + Long.parseLong(new String(time.get(1))) / 1_000;
    }
}
