package io.github.redisdelaybridge.store.inspection;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


/** The scripts behind the admin API (inspect, list, stats, replay, delete), against the real Redis. */
class AdminStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-admin");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = storeWith(1);
    }

    // --- inspect ----------------------------------------------------------------------------------------------

    @Test
    void inspectShowsAPendingMessage() throws Exception {
        Envelope envelope = envelope("m-1", "kafka:out", "the body");
        ScheduleResult stored = await(store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.AfterDelay(60_000), envelope)))).get(0);

        MessageFacts facts = await(store.inspection().inspect("m-1"));

        assertThat(facts.state()).isEqualTo(MessageState.PENDING);
        assertThat(facts.dueAt()).isEqualTo(stored.dueAt());
        assertThat(facts.attempts()).isZero();
        assertThat(EnvelopeCodec.decode("m-1", facts.envelope())).isEqualTo(envelope);
        assertThat(facts.envelopeSize()).as("bytes in Redis").isEqualTo(storedSize("m-1")).isLessThan(facts.envelope().length);
        assertThat(facts.redisNow()).isLessThan(stored.dueAt());
    }

    @Test
    void inspectFollowsAMessageThroughItsStates() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = await(store.dispatch().claim(0, 10, 60_000)).messages().get(0);

        MessageFacts inFlight = await(store.inspection().inspect("m-1"));
        assertThat(inFlight.state()).isEqualTo(MessageState.IN_FLIGHT);
        assertThat(inFlight.leaseUntil()).isGreaterThan(inFlight.redisNow());
        assertThat(inFlight.envelope()).isNotNull();

        await(store.dispatch().acknowledge(0, List.of(claimed)));
        MessageFacts delivered = await(store.inspection().inspect("m-1"));
        assertThat(delivered.state()).isEqualTo(MessageState.DELIVERED);
        assertThat(delivered.deliveredAt()).isBetween(inFlight.redisNow(), delivered.redisNow());
        assertThat(delivered.envelope()).isNull();
    }

    @Test
    void inspectShowsDeadLettersCancelsAndUnknownIds() throws Exception {
        await(store.ingest().storeDeadLetters(Map.of("dead-1", DeadLetterCodec.encode(deadLetter("dead-1", DeadLetterReason.INVALID_DELAY, "kafka:out")))));
        await(store.ingest().cancel("early", true));

        MessageFacts dead = await(store.inspection().inspect("dead-1"));
        assertThat(dead.state()).isEqualTo(MessageState.DEAD);
        assertThat(DeadLetterCodec.decode("dead-1", dead.deadRecord()).reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(dead.deadAt()).isNotNull();
        assertThat(await(store.inspection().inspect("early")).state()).isEqualTo(MessageState.CANCELLED);
        assertThat(await(store.inspection().inspect("never-seen")).state()).isEqualTo(MessageState.UNKNOWN);
    }

    @Test
    void inspectIgnoresRecordsOutsideTheirWindows() throws Exception {
        store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 1), new StoreLimits(MAX_DELAY_MS, 300, 300, 1_000, 60_000));
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, await(store.dispatch().claim(0, 10, 60_000)).messages()));
        await(store.ingest().cancel("early", true));
        Thread.sleep(600);

        assertThat(await(store.inspection().inspect("m-1")).state()).isEqualTo(MessageState.UNKNOWN);
        assertThat(await(store.inspection().inspect("early")).state()).isEqualTo(MessageState.UNKNOWN);
    }

    // --- listPending ------------------------------------------------------------------------------------------

    @Test
    void listPendingPagesThroughEveryMessageInDueOrderAcrossSlots() throws Exception {
        store = storeWith(4);
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 57; i++) {
            requests.add(new ScheduleRequest("m-" + i, new DueTime.At(10_000 + (i % 7) * 1_000L), envelope("m-" + i, "kafka:out", "b")));
        }
        await(store.ingest().schedule(requests));

        List<PendingEntry> all = pageThrough(after -> store.inspection().listPending(after, null, null, 10));

        assertThat(all).hasSize(57);
        assertThat(all).extracting(PendingEntry::position).isSortedAccordingTo(ListPosition.ORDER);
        assertThat(all).extracting(PendingEntry::messageId).doesNotHaveDuplicates();
    }

    @Test
    void listPendingGetsPastManyMessagesDueAtTheSameMillisecond() throws Exception {
        List<ScheduleRequest> requests = IntStream.range(0, 250)
                .mapToObj(i -> new ScheduleRequest(String.format("same-%03d", i), new DueTime.At(5_000), envelope("x", "kafka:out", "b")))
                .toList();
        await(store.ingest().schedule(requests));

        List<PendingEntry> all = pageThrough(after -> store.inspection().listPending(after, null, null, 7));

        assertThat(all).extracting(PendingEntry::messageId)
                .containsExactlyElementsOf(requests.stream().map(ScheduleRequest::messageId).toList());
    }

    @Test
    void listPendingContinuesAfterAPositionThatIsNoLongerThere() throws Exception {
        for (String id : List.of("a", "b", "c", "d")) {
            schedule(id, new DueTime.At(5_000));
        }
        Listing<PendingEntry> first = await(store.inspection().listPending(null, null, null, 2));
        await(store.ingest().cancel("b", false));

        Listing<PendingEntry> second = await(store.inspection().listPending(first.next(), null, null, 2));

        assertThat(first.entries()).extracting(PendingEntry::messageId).containsExactly("a", "b");
        assertThat(second.entries()).extracting(PendingEntry::messageId).containsExactly("c", "d");
    }

    @Test
    void listPendingReportsSizeAttemptsAndTarget() throws Exception {
        Envelope envelope = envelope("m-1", "kafka:orders.expired", "twelve bytes");
        await(store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.At(7_000), envelope))));

        Listing<PendingEntry> listing = await(store.inspection().listPending(null, null, null, 10));

        assertThat(listing.entries()).containsExactly(
                new PendingEntry("m-1", 7_000, 0, storedSize("m-1"), "kafka:orders.expired", new ListPosition(7_000, bytes("m-1"), 0)));
        assertThat(listing.next()).isNull();
    }

    @Test
    void listPendingFiltersByDueTimeAndTarget() throws Exception {
        for (int i = 0; i < 20; i++) {
            String target = i % 2 == 0 ? "kafka:even" : "kafka:odd";
            await(store.ingest().schedule(List.of(new ScheduleRequest("m-" + i, new DueTime.At(1_000L * (i + 1)), envelope("m-" + i, target, "b")))));
        }

        Listing<PendingEntry> dueBefore = await(store.inspection().listPending(null, 5_000L, null, 100));
        Listing<PendingEntry> odd = await(store.inspection().listPending(null, null, "kafka:odd", 100));
        Listing<PendingEntry> oddAndEarly = await(store.inspection().listPending(null, 6_001L, "kafka:odd", 100));

        assertThat(dueBefore.entries()).extracting(PendingEntry::messageId).containsExactly("m-0", "m-1", "m-2", "m-3");
        assertThat(odd.entries()).hasSize(10).allMatch(e -> e.target().equals("kafka:odd"));
        assertThat(oddAndEarly.entries()).extracting(PendingEntry::messageId).containsExactly("m-1", "m-3", "m-5");
        assertThat(odd.next()).isNull();
    }

    @Test
    void aFilterThatMatchesLittleIsScannedInBoundedStepsWithoutSkippingAnything() throws Exception {
        int count = InspectionStore.LIST_SCAN_BUDGET * 2 + 500;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String target = i % 600 == 599 ? "kafka:rare" : "kafka:common";
            requests.add(new ScheduleRequest(String.format("m-%05d", i), new DueTime.At(1_000L + i), envelope("x", target, "b")));
        }
        await(store.ingest().schedule(requests));

        Listing<PendingEntry> firstCall = await(store.inspection().listPending(null, null, "kafka:rare", 100));
        List<PendingEntry> all = pageThrough(after -> store.inspection().listPending(after, null, "kafka:rare", 100));

        assertThat(firstCall.entries()).extracting(PendingEntry::messageId).containsExactly("m-00599");
        assertThat(firstCall.next()).as("examined only part of the set").isNotNull();
        assertThat(all).extracting(PendingEntry::messageId).containsExactly("m-00599", "m-01199", "m-01799", "m-02399");
    }

    // --- dead letters -----------------------------------------------------------------------------------------

    @Test
    void listDeadLettersOldestFirstFilteredByReason() throws Exception {
        store = storeWith(3);
        for (int i = 0; i < 12; i++) {
            DeadLetterReason reason = i % 3 == 0 ? DeadLetterReason.PUBLISH_FAILED : DeadLetterReason.INVALID_DELAY;
            await(store.ingest().storeDeadLetters(Map.of("d-" + i, DeadLetterCodec.encode(deadLetter("d-" + i, reason, "kafka:t" + i)))));
            Thread.sleep(2);
        }

        List<DeadLetterEntry> all = pageThrough(after -> store.inspection().listDeadLetters(after, null, 5));
        List<DeadLetterEntry> failed = pageThrough(after -> store.inspection().listDeadLetters(after, "publish-failed", 5));

        assertThat(all).extracting(DeadLetterEntry::messageId)
                .containsExactly(IntStream.range(0, 12).mapToObj(i -> "d-" + i).toArray(String[]::new));
        assertThat(failed).extracting(DeadLetterEntry::messageId).containsExactly("d-0", "d-3", "d-6", "d-9");
        DeadLetterEntry first = failed.get(0);
        assertThat(first.reason()).isEqualTo("publish-failed");
        assertThat(first.attempts()).isEqualTo(3);
        assertThat(first.target()).isEqualTo("kafka:t0");
        assertThat(first.size()).isEqualTo(DeadLetterCodec.encode(deadLetter("d-0", DeadLetterReason.PUBLISH_FAILED, "kafka:t0")).length);
    }

    @Test
    void anUnreadableDeadLetterIsListedWithoutReason() throws Exception {
        await(store.ingest().storeDeadLetters(Map.of("junk", new byte[] {1, 2, 3})));

        assertThat(await(store.inspection().listDeadLetters(null, null, 10)).entries()).containsExactly(
                new DeadLetterEntry("junk", await(store.inspection().inspect("junk")).deadAt(), 3, "", 0, "", 0));
    }

    @Test
    void replayMovesADeadLetterBackToTheDueSet() throws Exception {
        byte[] record = DeadLetterCodec.encode(deadLetter("d-1", DeadLetterReason.PUBLISH_FAILED, "kafka:out"));
        await(store.ingest().storeDeadLetters(Map.of("d-1", record)));
        Envelope envelope = envelope("d-1", "kafka:other", "replayed");

        ReplayResult result = await(store.inspection().replayDeadLetter(record, new ScheduleRequest("d-1", new DueTime.At(2_000), envelope)));

        assertThat(result).isEqualTo(new ReplayResult(ReplayResult.Outcome.REPLAYED, 2_000));
        MessageFacts facts = await(store.inspection().inspect("d-1"));
        assertThat(facts.state()).isEqualTo(MessageState.PENDING);
        assertThat(facts.deadRecord()).isNull();
        assertThat(EnvelopeCodec.decode("d-1", facts.envelope())).isEqualTo(envelope);
        assertThat(await(store.inspection().listDeadLetters(null, null, 10)).entries()).isEmpty();
    }

    @Test
    void replayClearsTheDedupeAndCancelRecordsOfTheId() throws Exception {
        schedule("d-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, await(store.dispatch().claim(0, 10, 60_000)).messages()));
        await(store.ingest().cancel("d-1", true));
        byte[] record = DeadLetterCodec.encode(deadLetter("d-1", DeadLetterReason.PUBLISH_FAILED, "kafka:out"));
        await(store.ingest().storeDeadLetters(Map.of("d-1", record)));

        ReplayResult result = await(store.inspection().replayDeadLetter(record, new ScheduleRequest("d-1", new DueTime.At(1_000),
                envelope("d-1", "kafka:out", "again"))));

        assertThat(result.outcome()).isEqualTo(ReplayResult.Outcome.REPLAYED);
        assertThat(await(store.dispatch().claim(0, 10, 60_000)).messages()).extracting(ClaimedMessage::messageId).containsExactly("d-1");
    }

    @Test
    void replayRefusesWhatItCannotDoSafely() throws Exception {
        byte[] record = DeadLetterCodec.encode(deadLetter("d-1", DeadLetterReason.PUBLISH_FAILED, "kafka:out"));
        await(store.ingest().storeDeadLetters(Map.of("d-1", record)));
        ScheduleRequest replay = new ScheduleRequest("d-1", new DueTime.AfterDelay(0), envelope("d-1", "kafka:out", "b"));

        assertThat(await(store.inspection().replayDeadLetter(record, new ScheduleRequest("nope", new DueTime.AfterDelay(0), envelope("nope", "kafka:out", "b"))))
                .outcome()).isEqualTo(ReplayResult.Outcome.NOT_FOUND);
        assertThat(await(store.inspection().replayDeadLetter(new byte[] {9}, replay)).outcome()).isEqualTo(ReplayResult.Outcome.CHANGED_MEANWHILE);
        assertThat(await(store.inspection().replayDeadLetter(record, new ScheduleRequest("d-1", new DueTime.AfterDelay(MAX_DELAY_MS + 1), replay.envelope())))
                .outcome()).isEqualTo(ReplayResult.Outcome.DELAY_TOO_LONG);
        schedule("d-1", new DueTime.AfterDelay(60_000));
        assertThat(await(store.inspection().replayDeadLetter(record, replay)).outcome()).isEqualTo(ReplayResult.Outcome.ID_IN_USE);

        assertThat(await(store.inspection().inspect("d-1")).deadRecord()).isEqualTo(record);
    }

    @Test
    void deleteForgetsADeadLetterOnly() throws Exception {
        await(store.ingest().storeDeadLetters(Map.of("d-1", DeadLetterCodec.encode(deadLetter("d-1", DeadLetterReason.INVALID_DELAY, "")))));
        schedule("d-1", new DueTime.AfterDelay(60_000));

        assertThat(await(store.inspection().deleteDeadLetter("d-1"))).isTrue();
        assertThat(await(store.inspection().deleteDeadLetter("d-1"))).isFalse();

        MessageFacts facts = await(store.inspection().inspect("d-1"));
        assertThat(facts.deadRecord()).isNull();
        assertThat(facts.state()).isEqualTo(MessageState.PENDING);
        assertThat(await(store.inspection().listDeadLetters(null, null, 10)).entries()).isEmpty();
    }

    // --- stats ------------------------------------------------------------------------------------------------

    @Test
    void statsCountEveryStateOverAllSlots() throws Exception {
        store = storeWith(3);
        for (int i = 0; i < 6; i++) {
            schedule("pending-" + i, new DueTime.AfterDelay(60_000 + i));
        }
        schedule("claimed", new DueTime.At(1_000));
        await(store.dispatch().claim(store.keys().slotOf("claimed"), 10, 60_000));
        schedule("delivered", new DueTime.At(1_000));
        int deliveredSlot = store.keys().slotOf("delivered");
        await(store.dispatch().acknowledge(deliveredSlot, await(store.dispatch().claim(deliveredSlot, 10, 60_000)).messages()));
        long now = redisNowMs();
        schedule("overdue", new DueTime.At(now - 5_000));
        await(store.ingest().cancel("pending-0", false));
        await(store.ingest().cancel("early", true));
        await(store.ingest().storeDeadLetters(Map.of("dead-1", new byte[] {1}, "dead-2", new byte[] {2})));

        StoreStats stats = await(store.inspection().stats());

        assertThat(stats).isEqualTo(new StoreStats(stats.redisNow(), 6, 1, 1, 2, 2, now - 5_000, 0));
        assertThat(stats.oldestOverdueMs()).isGreaterThanOrEqualTo(5_000).isLessThan(60_000);
    }

    @Test
    void statsOfAnEmptyStore() throws Exception {
        StoreStats stats = await(store.inspection().stats());

        assertThat(stats).isEqualTo(new StoreStats(stats.redisNow(), 0, 0, 0, 0, 0, -1, 0));
        assertThat(stats.oldestOverdueMs()).isZero();
    }

    // --- due histogram ----------------------------------------------------------------------------------------

    @Test
    void theDueHistogramCountsPendingMessagesPerPeriodOverAllSlots() throws Exception {
        store = storeWith(3);
        schedule("claimed", new DueTime.At(1_000));
        await(store.dispatch().claim(store.keys().slotOf("claimed"), 10, 60_000));
        long base = redisNowMs();
        schedule("overdue-1", new DueTime.At(base - 5_000));
        schedule("overdue-2", new DueTime.At(base - 1));
        schedule("first-minute", new DueTime.At(base + 30_000));
        schedule("second-minute-a", new DueTime.At(base + 90_000));
        schedule("second-minute-b", new DueTime.At(base + 100_000));
        schedule("third-minute", new DueTime.At(base + 150_000));
        schedule("later", new DueTime.At(base + 200_000));

        DueHistogram histogram = await(store.inspection().dueHistogram(60_000, 3));

        assertThat(histogram.from()).as("Redis's clock, within the test's 30 s of slack").isBetween(base, base + 29_000);
        assertThat(histogram.counts()).containsExactly(1, 2, 1);
        assertThat(histogram.overdue()).as("the in-flight message is not pending").isEqualTo(2);
        assertThat(histogram.later()).isEqualTo(1);
    }

    @Test
    void theDueHistogramOfAnEmptyStoreHasEveryBucket() throws Exception {
        DueHistogram histogram = await(store.inspection().dueHistogram(1_000, 1_440));

        assertThat(histogram.counts()).hasSize(1_440).containsOnly(0L);
        assertThat(histogram.overdue()).isZero();
        assertThat(histogram.later()).isZero();
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private StoreFaces storeWith(int slots) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), slots), new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
    }

    private static <T> List<T> pageThrough(Function<ListPosition, CompletableFuture<Listing<T>>> list) throws Exception {
        List<T> all = new ArrayList<>();
        ListPosition after = null;
        for (int call = 0; call < 1_000; call++) {
            Listing<T> page = await(list.apply(after));
            all.addAll(page.entries());
            if (page.next() == null) {
                return all;
            }
            assertThat(after == null || page.next().isAfter(after)).as("listing makes progress").isTrue();
            after = page.next();
        }
        throw new AssertionError("listing did not end");
    }

    private void schedule(String id, DueTime dueTime) throws Exception {
        await(store.ingest().schedule(List.of(new ScheduleRequest(id, dueTime, envelope(id, "kafka:out", "body of " + id)))));
    }

    private static Envelope envelope(String id, String target, String body) {
        return new Envelope(id, target, "kafka:in/0@1", null, List.of(MessageHeader.text("h", "v")), Map.of(), bytes(body));
    }

    private static DeadLetter deadLetter(String id, DeadLetterReason reason, String target) {
        return new DeadLetter(id, reason, "détail with ünicode", "kafka:in/0@" + id.length(), target, reason == DeadLetterReason.PUBLISH_FAILED ? 3 : 0,
                null, List.of(MessageHeader.text("x-delay", "soon")), new LinkedHashMap<>(), bytes("body of " + id));
    }

    /** Bytes the envelope of a pending message takes in Redis (its stored form). */
    private long storedSize(String id) throws Exception {
        return redis.connection().async().hstrlen(bytes(store.keys().payloads(0)), bytes(id)).get(10, TimeUnit.SECONDS);
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1_000;
    }
}
