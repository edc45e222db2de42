package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static io.github.redisdelaybridge.testkit.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.DueTimeChange;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult.Outcome;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.inspection.DeadLetterEntry;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.inspection.ReplayResult;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Message ids stored as packed members (lua/lib/memberIds) by the store's scripts, against the real Redis: that
 * Redis really holds the short form, that users and the bridge only see ids, that dedupe, cancel and admin work by
 * id, that an id held verbatim while the names hash was full is still found once its stem has a code, and what
 * happens to a member whose stem code is lost.
 */
class PackedMemberStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-packed");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;
    private static final long LEASE_MS = 60_000;
    private static final String KAFKA_ID = "delay.inbound-0-1234567";

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = storeWith(1);
    }

    // --- what Redis holds -------------------------------------------------------------------------------------

    @Test
    void aDefaultKafkaIdIsHeldPackedEverywhereAndOnlyTheIdIsSeen() throws Exception {
        ScheduleResult stored = schedule(KAFKA_ID, new DueTime.At(1_000));

        byte[] member = onlyMember(keys().due(0));
        assertThat(member[0]).isEqualTo((byte) 0xFF);
        assertThat(member).as("0xFF, tag, stem code, partition, offset in 3 bytes").hasSize(7);
        assertThat(hexists(keys().payloads(0), bytes(KAFKA_ID))).as("not also verbatim").isFalse();
        assertThat(hexists(keys().payloads(0), member)).isTrue();

        MessageFacts facts = await(store.inspection().inspect(KAFKA_ID));
        assertThat(facts.state()).isEqualTo(MessageState.PENDING);
        assertThat(facts.dueAt()).isEqualTo(stored.dueAt());
        assertThat(EnvelopeCodec.decode(KAFKA_ID, facts.envelope()).messageId()).isEqualTo(KAFKA_ID);

        ClaimedMessage claimed = claimOne();
        assertThat(claimed.messageId()).isEqualTo(KAFKA_ID);
        assertThat(claimed.idResolved()).isTrue();
        assertThat(claimed.member()).isEqualTo(member);
        assertThat(onlyMember(keys().inFlight(0))).isEqualTo(member);

        assertThat(await(store.dispatch().acknowledge(0, List.of(claimed)))).isEqualTo(1);
        assertThat(onlyMember(keys().delivered(0))).as("the dedupe record is packed too").isEqualTo(member);
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.DELIVERED);
    }

    @Test
    void packedIdsTakeLessMemoryThanTheSameIdsVerbatim() throws Exception {
        int count = 1_000;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = "delay.inbound-" + (i % 3) + "-" + (1_234_567 + i);
            requests.add(new ScheduleRequest(id, new DueTime.AfterDelay(600_000), envelope(id, "b")));
        }
        assertThat(await(store.ingest().schedule(requests))).extracting(ScheduleResult::outcome).containsOnly(Outcome.SCHEDULED);
        // the same ids verbatim, with the same scores and payloads
        byte[] plainDue = bytes(redis.prefix() + ":plain-due");
        byte[] plainPayloads = bytes(redis.prefix() + ":plain-payloads");
        for (ScheduleRequest request : requests) {
            redis().zadd(plainDue, 1.0, bytes(request.messageId())).get(5, TimeUnit.SECONDS);
            redis().hset(plainPayloads, bytes(request.messageId()), new byte[20]).get(5, TimeUnit.SECONDS);
        }
        byte[] packedPayloads = bytes(redis.prefix() + ":packed-payloads");
        for (byte[] member : redis().zrange(bytes(keys().due(0)), 0, -1).get(5, TimeUnit.SECONDS)) {
            redis().hset(packedPayloads, member, new byte[20]).get(5, TimeUnit.SECONDS);
        }

        long packedDue = memoryUsage(bytes(keys().due(0)));
        long verbatimDue = memoryUsage(plainDue);
        long packedHash = memoryUsage(packedPayloads);
        long verbatimHash = memoryUsage(plainPayloads);

        // 23-character ids in 32-byte allocations, packed members of 7 bytes in 16-byte ones: 16 bytes each
        assertThat(verbatimDue - packedDue).as("due set: %d packed, %d verbatim", packedDue, verbatimDue).isGreaterThanOrEqualTo(14L * count);
        assertThat(verbatimHash - packedHash).as("hash: %d packed, %d verbatim", packedHash, verbatimHash).isGreaterThanOrEqualTo(14L * count);
    }

    @Test
    void idsThatDoNotPackAreHeldVerbatimAsBefore() throws Exception {
        for (String id : List.of("m-1", "order-01-2", "x-1-2-", "1-2", "ü")) {
            schedule(id, new DueTime.At(1_000));
            assertThat(hexists(keys().payloads(0), bytes(id))).as(id).isTrue();
        }
        assertThat(ids(await(store.dispatch().claim(0, 10, LEASE_MS)))).containsExactlyInAnyOrder("m-1", "order-01-2", "x-1-2-", "1-2", "ü");
    }

    @Test
    void manyPackedIdsRoundTripThroughScheduleClaimAndAcknowledge() throws Exception {
        List<String> ids = new ArrayList<>();
        for (String topic : List.of("delay.inbound", "a-1", "orders.delay", "ü-topic")) {
            for (long offset : new long[] {0, 1, 127, 128, 16_384, 1L << 35, 999_999_999_999_999L}) {
                ids.add(topic + "-" + (offset % 7) + "-" + offset);
            }
        }
        List<ScheduleRequest> requests = ids.stream().map(id -> new ScheduleRequest(id, new DueTime.At(1_000), envelope(id, "body of " + id))).toList();
        assertThat(await(store.ingest().schedule(requests))).extracting(ScheduleResult::outcome).containsOnly(Outcome.SCHEDULED);

        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 1_000, LEASE_MS)).messages();

        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactlyInAnyOrderElementsOf(ids);
        for (ClaimedMessage message : claimed) {
            assertThat(message.member()[0]).as(message.messageId()).isEqualTo((byte) 0xFF);
            assertThat(text(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope()).body())).isEqualTo("body of " + message.messageId());
        }
        assertThat(await(store.dispatch().acknowledge(0, claimed))).isEqualTo(ids.size());
        assertThat(await(store.ingest().schedule(requests))).extracting(ScheduleResult::outcome).containsOnly(Outcome.DUPLICATE_DELIVERED);
    }

    // --- dedupe and cancel by id --------------------------------------------------------------------------------

    @Test
    void dedupeWorksForPackedIds() throws Exception {
        assertThat(schedule(KAFKA_ID, new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.SCHEDULED);
        assertThat(schedule(KAFKA_ID, new DueTime.At(1_000))).isEqualTo(new ScheduleResult(Outcome.DUPLICATE_PENDING, -1));

        await(store.dispatch().acknowledge(0, List.of(claimOne())));
        assertThat(schedule(KAFKA_ID, new DueTime.At(1_000))).isEqualTo(new ScheduleResult(Outcome.DUPLICATE_DELIVERED, -1));

        assertThat(await(store.ingest().cancel("delay.inbound-3-77", true))).isEqualTo(CancelOutcome.RECORDED);
        assertThat(onlyMember(keys().cancelled(0))[0]).as("recorded as the member schedule looks for").isEqualTo((byte) 0xFF);
        assertThat(schedule("delay.inbound-3-77", new DueTime.At(1_000))).isEqualTo(new ScheduleResult(Outcome.CANCELLED, -1));
    }

    @Test
    void aCancelBeforeArrivalOfAnIdWhoseStemIsNewStillWins() throws Exception {
        assertThat(await(store.ingest().cancel("brand.new.topic-0-1", true))).isEqualTo(CancelOutcome.RECORDED);

        assertThat(schedule("brand.new.topic-0-1", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(await(store.inspection().inspect("brand.new.topic-0-1")).state()).isEqualTo(MessageState.CANCELLED);
    }

    @Test
    void cancelInspectAndChangeDueTimeFindAPackedMessageById() throws Exception {
        schedule(KAFKA_ID, new DueTime.AfterDelay(60_000));

        DueTimeChange change = await(store.ingest().changeDueTime(KAFKA_ID, new DueTime.At(5_000)));
        assertThat(change.outcome()).isEqualTo(DueTimeChange.Outcome.CHANGED);
        assertThat(await(store.inspection().inspect(KAFKA_ID)).dueAt()).isEqualTo(5_000);
        assertThat(redis().zscore(bytes(keys().due(0)), onlyMember(keys().due(0))).get(5, TimeUnit.SECONDS)).isEqualTo(5_000.0);

        assertThat(await(store.ingest().cancel(KAFKA_ID, false))).isEqualTo(CancelOutcome.WITHDRAWN);
        assertThat(redis().zcard(bytes(keys().due(0))).get(5, TimeUnit.SECONDS)).isZero();
        assertThat(redis().hlen(bytes(keys().payloads(0))).get(5, TimeUnit.SECONDS)).isZero();
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.CANCELLED);
        assertThat(await(store.ingest().changeDueTime(KAFKA_ID, new DueTime.At(5_000))).outcome()).isEqualTo(DueTimeChange.Outcome.NOT_PENDING);
    }

    @Test
    void aPackedMessageInFlightIsReportedSoByCancelAndChangeDueTime() throws Exception {
        schedule(KAFKA_ID, new DueTime.At(1_000));
        claimOne();

        assertThat(await(store.ingest().cancel(KAFKA_ID, true))).isEqualTo(CancelOutcome.IN_FLIGHT);
        assertThat(await(store.ingest().changeDueTime(KAFKA_ID, new DueTime.At(5_000))).outcome()).isEqualTo(DueTimeChange.Outcome.IN_FLIGHT);
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.IN_FLIGHT);
    }

    @Test
    void inspectingAndLookingUpNeverWriteTheNamesHash() throws Exception {
        await(store.inspection().inspect(KAFKA_ID));
        await(store.ingest().changeDueTime(KAFKA_ID, new DueTime.At(5_000)));
        await(store.ingest().cancel(KAFKA_ID, false));
        await(store.inspection().listPending(null, null, null, 10));

        assertThat(redis().exists(bytes(keys().names(0))).get(5, TimeUnit.SECONDS)).isZero();
    }

    // --- a packable id held verbatim: stored while the names hash was full, its stem given a code since ------------
    // (the cap, bridge.redis.names.*, raised): the id's member is now packed, so it is looked up under both

    @Test
    void aVerbatimMessageWhoseStemGotACodeIsFoundByIdInspectedRescheduledAndCancelled() throws Exception {
        scheduleWhileTheNamesHashIsFull(KAFKA_ID, 7_000, "verbatim");
        schedule("delay.inbound-0-1", new DueTime.AfterDelay(60_000)); // gives the stem a code: a packed member is looked up first

        MessageFacts facts = await(store.inspection().inspect(KAFKA_ID));
        assertThat(facts.state()).isEqualTo(MessageState.PENDING);
        assertThat(facts.dueAt()).isEqualTo(7_000);
        assertThat(text(EnvelopeCodec.decode(KAFKA_ID, facts.envelope()).body())).isEqualTo("verbatim");

        assertThat(await(store.ingest().changeDueTime(KAFKA_ID, new DueTime.At(8_000))).outcome()).isEqualTo(DueTimeChange.Outcome.CHANGED);
        assertThat(redis().zscore(bytes(keys().due(0)), bytes(KAFKA_ID)).get(5, TimeUnit.SECONDS)).isEqualTo(8_000.0);

        assertThat(await(store.ingest().cancel(KAFKA_ID, false))).isEqualTo(CancelOutcome.WITHDRAWN);
        assertThat(hexists(keys().payloads(0), bytes(KAFKA_ID))).isFalse();
        assertThat(redis().zscore(bytes(keys().due(0)), bytes(KAFKA_ID)).get(5, TimeUnit.SECONDS)).isNull();
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.CANCELLED);
        assertThat(schedule(KAFKA_ID, new DueTime.At(1_000)).outcome()).as("a re-polled record after the cancel").isEqualTo(Outcome.CANCELLED);
    }

    @Test
    void aCancelRecordedVerbatimBeforeArrivalStillWinsOnceTheIdPacks() throws Exception {
        assertThat(await(storeWithAFullNamesHash().cancel(KAFKA_ID, true))).isEqualTo(CancelOutcome.RECORDED);
        assertThat(redis().zscore(bytes(keys().cancelled(keys().slotOf(KAFKA_ID))), bytes(KAFKA_ID)).get(5, TimeUnit.SECONDS))
                .as("recorded verbatim").isNotNull();
        schedule("delay.inbound-0-1", new DueTime.AfterDelay(60_000)); // gives the stem a code: the id is packed on arrival

        assertThat(schedule(KAFKA_ID, new DueTime.At(1_000))).isEqualTo(new ScheduleResult(Outcome.CANCELLED, -1));
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.CANCELLED);
    }

    @Test
    void aVerbatimMessageWhoseStemGotACodeIsClaimedRescheduledAndAcknowledgedThroughItsRawMember() throws Exception {
        scheduleWhileTheNamesHashIsFull(KAFKA_ID, 1_000, "verbatim");
        schedule("delay.inbound-0-1", new DueTime.AfterDelay(60_000));

        ClaimedMessage claimed = claimOne();
        assertThat(claimed.messageId()).isEqualTo(KAFKA_ID);
        assertThat(claimed.member()).isEqualTo(bytes(KAFKA_ID));
        assertThat(text(EnvelopeCodec.decode(KAFKA_ID, claimed.encodedEnvelope()).body())).isEqualTo("verbatim");
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.IN_FLIGHT);

        assertThat(await(store.dispatch().reschedule(claimed, 0, true))).isEqualTo(1);
        ClaimedMessage again = claimOne();
        assertThat(again.attempts()).isEqualTo(1);

        assertThat(await(store.dispatch().acknowledge(0, List.of(again)))).isEqualTo(1);
        assertThat(redis().hlen(bytes(keys().payloads(0))).get(5, TimeUnit.SECONDS)).as("only the packed one is left").isEqualTo(1);
        assertThat(redis().zscore(bytes(keys().delivered(0)), bytes(KAFKA_ID)).get(5, TimeUnit.SECONDS)).isNotNull();
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.DELIVERED);
    }

    @Test
    void aVerbatimMessageIsDeadLetteredByIdAndReplayedPackedOnceItsStemHasACode() throws Exception {
        scheduleWhileTheNamesHashIsFull(KAFKA_ID, 1_000, "verbatim");
        ClaimedMessage claimed = claimOne();
        DeadLetter deadLetter = new DeadLetter(KAFKA_ID, DeadLetterReason.PUBLISH_FAILED, "refused", "kafka:delay.inbound/0@1234567",
                "kafka:out", 3, null, List.of(), Map.of(), bytes("verbatim"));
        byte[] record = DeadLetterCodec.encode(deadLetter);

        assertThat(await(store.dispatch().deadLetter(claimed, record))).isEqualTo(1);
        assertThat(await(store.inspection().inspect(KAFKA_ID)).state()).isEqualTo(MessageState.DEAD);
        assertThat(redis().zcard(bytes(keys().inFlight(0))).get(5, TimeUnit.SECONDS)).isZero();

        ReplayResult replayed = await(store.inspection().replayDeadLetter(record, new ScheduleRequest(KAFKA_ID, new DueTime.At(2_000), envelope(KAFKA_ID, "again"))));
        assertThat(replayed.outcome()).isEqualTo(ReplayResult.Outcome.REPLAYED);
        assertThat(onlyMember(keys().due(0))[0]).as("replayed packed").isEqualTo((byte) 0xFF);
        assertThat(claimOne().messageId()).isEqualTo(KAFKA_ID);
    }

    @Test
    void replayRefusesAnIdPendingVerbatimWhoseStemGotACode() throws Exception {
        byte[] record = DeadLetterCodec.encode(new DeadLetter(KAFKA_ID, DeadLetterReason.PUBLISH_FAILED, "refused", "x", "kafka:out", 3, null,
                List.of(), Map.of(), bytes("b")));
        await(store.ingest().storeDeadLetters(Map.of(KAFKA_ID, record)));
        scheduleWhileTheNamesHashIsFull(KAFKA_ID, 60_000, "verbatim");
        schedule("delay.inbound-0-1", new DueTime.AfterDelay(60_000));

        ReplayResult result = await(store.inspection().replayDeadLetter(record, new ScheduleRequest(KAFKA_ID, new DueTime.At(2_000), envelope(KAFKA_ID, "b"))));

        assertThat(result.outcome()).isEqualTo(ReplayResult.Outcome.ID_IN_USE);
    }

    // --- a member whose stem code is lost -----------------------------------------------------------------------

    @Test
    void aMemberWhoseNamesHashWasDeletedIsClaimedUnderAStandInIdAndDeadLetteredThroughItsRawMember() throws Exception {
        store = storeWith(4);
        schedule(KAFKA_ID, new DueTime.At(1_000));
        int slot = keys().slotOf(KAFKA_ID);
        byte[] member = onlyMember(keys().due(slot));
        redis().del(bytes(keys().names(slot))).get(5, TimeUnit.SECONDS);

        List<ClaimedMessage> claimed = await(store.dispatch().claim(slot, 10, LEASE_MS)).messages();

        assertThat(claimed).hasSize(1);
        ClaimedMessage lost = claimed.get(0);
        assertThat(lost.idResolved()).isFalse();
        assertThat(lost.member()).isEqualTo(member);
        assertThat(lost.messageId()).startsWith(StandInIds.UNRESOLVABLE_ID_PREFIX + HexFormat.of().formatHex(member));
        assertThat(keys().slotOf(lost.messageId())).as("the stand-in maps to the member's slot").isEqualTo(slot);

        DeadLetter deadLetter = new DeadLetter(lost.messageId(), DeadLetterReason.CORRUPT_ENVELOPE, "names lost", "redis", "", 0, null,
                List.of(), Map.of(), lost.encodedEnvelope());
        assertThat(await(store.dispatch().deadLetter(lost, DeadLetterCodec.encode(deadLetter)))).isEqualTo(1);
        assertThat(redis().hlen(bytes(keys().payloads(slot))).get(5, TimeUnit.SECONDS)).isZero();
        assertThat(redis().zcard(bytes(keys().inFlight(slot))).get(5, TimeUnit.SECONDS)).isZero();
        assertThat(await(store.inspection().inspect(lost.messageId())).state()).isEqualTo(MessageState.DEAD);
        assertThat(await(store.inspection().listDeadLetters(null, null, 10)).entries()).extracting(DeadLetterEntry::messageId).containsExactly(lost.messageId());
        assertThat(await(store.inspection().deleteDeadLetter(lost.messageId()))).isTrue();
    }

    @Test
    void aStandInIdIsAlwaysInTheMembersSlot() {
        StoreFaces spread = storeWith(12);
        for (int i = 0; i < 200; i++) {
            byte[] member = {(byte) 0xFF, (byte) i, 1, (byte) (i % 5), (byte) (i % 100)};
            int slot = i % 12;
            String id = StandInIds.standIn(member, spread.keys(), slot);
            assertThat(spread.keys().slotOf(id)).as(id).isEqualTo(slot);
            assertThat(id).startsWith(StandInIds.UNRESOLVABLE_ID_PREFIX + HexFormat.of().formatHex(member));
        }
        assertThat(StandInIds.standIn(new byte[] {(byte) 0xFF, 1}, storeWith(1).keys(), 0)).isEqualTo("unresolvable-member:ff01");
    }

    // --- listing --------------------------------------------------------------------------------------------------

    @Test
    void listPendingShowsIdsOfPackedVerbatimAndUnresolvableMembers() throws Exception {
        scheduleWhileTheNamesHashIsFull("delay.inbound-0-9", 1_000, "verbatim");
        schedule(KAFKA_ID, new DueTime.At(3_000));
        schedule("m-1", new DueTime.At(2_000));

        assertThat(await(store.inspection().listPending(null, null, null, 10)).entries()).extracting(PendingEntry::messageId)
                .containsExactly("delay.inbound-0-9", "m-1", KAFKA_ID);

        redis().del(bytes(keys().names(0))).get(5, TimeUnit.SECONDS);
        assertThat(await(store.inspection().listPending(null, null, null, 10)).entries()).extracting(PendingEntry::messageId)
                .containsExactly("delay.inbound-0-9", "m-1", StandInIds.UNRESOLVABLE_ID_PREFIX + HexFormat.of().formatHex(onlyMemberDueAt(3_000)));
    }

    @Test
    void listPendingPagesThroughPackedIdsAcrossSlotsWithoutSkippingOrRepeating() throws Exception {
        store = storeWith(4);
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            String id = (i % 2 == 0 ? "delay.inbound" : "other.topic") + "-" + (i % 3) + "-" + i;
            requests.add(new ScheduleRequest(id, new DueTime.At(10_000 + (i % 4) * 1_000L), envelope(id, "b")));
        }
        requests.add(new ScheduleRequest("m-verbatim", new DueTime.At(10_000), envelope("m-verbatim", "b")));
        await(store.ingest().schedule(requests));

        List<PendingEntry> all = pageThrough(store, 7);

        assertThat(all).extracting(PendingEntry::messageId)
                .containsExactlyInAnyOrderElementsOf(requests.stream().map(ScheduleRequest::messageId).toList());
        assertThat(all).extracting(PendingEntry::position).isSortedAccordingTo(ListPosition.ORDER);
    }

    @Test
    void equalPackedMembersInTwoSlotsAreBothListed() throws Exception {
        store = storeWith(2);
        // two topics whose ids land in different slots; with one tag for both names hashes, each topic is the first
        // stem of its slot (code 1), so both ids pack to the same bytes, due at the same time
        String inSlot0 = topicWhoseIdIsInSlot("a", 0) + "-0-5";
        String inSlot1 = topicWhoseIdIsInSlot("b", 1) + "-0-5";
        for (int slot = 0; slot < 2; slot++) {
            redis().hset(bytes(keys().names(slot)), bytes("tag"), bytes("7")).get(5, TimeUnit.SECONDS);
        }
        schedule(inSlot0, new DueTime.At(5_000));
        schedule(inSlot1, new DueTime.At(5_000));
        assertThat(onlyMember(keys().due(0))).isEqualTo(onlyMember(keys().due(1)));

        List<PendingEntry> onePerPage = pageThrough(store, 1);

        assertThat(onePerPage).extracting(PendingEntry::messageId).containsExactly(inSlot0, inSlot1);
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private StoreFaces storeWith(int slots) {
        return StoreFaces.over(redis(), new Keys(redis.prefix(), slots), new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
    }

    private Keys keys() {
        return store.keys();
    }

    private static RedisClusterAsyncCommands<byte[], byte[]> redis() {
        return redis.connection().async();
    }

    private ScheduleResult schedule(String id, DueTime dueTime) throws Exception {
        return await(store.ingest().schedule(List.of(new ScheduleRequest(id, dueTime, envelope(id, "body of " + id))))).get(0);
    }

    /** Schedules through a store whose names hash is full (a cap of 0): the id is held verbatim, the payload in the wire form. */
    private void scheduleWhileTheNamesHashIsFull(String id, long dueAt, String body) throws Exception {
        ScheduleRequest request = new ScheduleRequest(id, new DueTime.At(dueAt), envelope(id, body));
        assertThat(await(storeWithAFullNamesHash().schedule(List.of(request)))).extracting(ScheduleResult::outcome).containsExactly(Outcome.SCHEDULED);
        assertThat(hexists(keys().payloads(keys().slotOf(id)), bytes(id))).as("%s held verbatim", id).isTrue();
    }

    private IngestStore storeWithAFullNamesHash() {
        return StoreFaces.over(redis(), keys(), new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000, Long.MAX_VALUE / 2,
                new NameLimits(0, 0))).ingest();
    }

    private ClaimedMessage claimOne() throws Exception {
        List<ClaimedMessage> messages = await(store.dispatch().claim(0, 10, LEASE_MS)).messages();
        assertThat(messages).hasSize(1);
        return messages.get(0);
    }

    private static byte[] onlyMember(String key) throws Exception {
        List<byte[]> members = redis().zrange(bytes(key), 0, -1).get(5, TimeUnit.SECONDS);
        assertThat(members).as(key).hasSize(1);
        return members.get(0);
    }

    private byte[] onlyMemberDueAt(long due) throws Exception {
        List<byte[]> members = redis().zrangebyscore(bytes(keys().due(0)), io.lettuce.core.Range.create(due, due)).get(5, TimeUnit.SECONDS);
        assertThat(members).hasSize(1);
        return members.get(0);
    }

    private static boolean hexists(String key, byte[] field) throws Exception {
        return redis().hexists(bytes(key), field).get(5, TimeUnit.SECONDS);
    }

    /** MEMORY USAGE of every element (SAMPLES 0): a sample of a skiplist would add the noise of its random node levels. */
    private static long memoryUsage(byte[] key) throws Exception {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add("USAGE").addKey(key).add("SAMPLES").add(0);
        return redis().dispatch(CommandType.MEMORY, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args).get(5, TimeUnit.SECONDS);
    }

    private String topicWhoseIdIsInSlot(String base, int slot) {
        for (int i = 0; ; i++) {
            if (keys().slotOf(base + i + "-0-5") == slot) {
                return base + i;
            }
        }
    }

    private static List<PendingEntry> pageThrough(StoreFaces store, int pageSize) throws Exception {
        List<PendingEntry> all = new ArrayList<>();
        Set<ListPosition> seen = new HashSet<>();
        ListPosition after = null;
        for (int call = 0; call < 1_000; call++) {
            Listing<PendingEntry> page = await(store.inspection().listPending(after, null, null, pageSize));
            all.addAll(page.entries());
            if (page.next() == null) {
                return all;
            }
            assertThat(seen.add(page.next())).as("listing makes progress").isTrue();
            after = page.next();
        }
        throw new AssertionError("listing did not end");
    }

    private static List<String> ids(ClaimedBatch batch) {
        return batch.messages().stream().map(ClaimedMessage::messageId).toList();
    }

    private static Envelope envelope(String id, String body) {
        return new Envelope(id, "kafka:out", "kafka:delay.inbound/0@1", null, List.of(), Map.of(), bytes(body));
    }
}
