package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleResult.Outcome;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


/** cancel.lua, changeDueTime.lua and schedule.lua's cancel records, against the real Redis. */
class ControlStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-control");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = storeWith(WINDOW_MS);
    }

    // --- cancel ---------------------------------------------------------------------------------------------

    @Test
    void cancelWithdrawsAPendingMessageForGood() throws Exception {
        schedule("m-1", new DueTime.At(1_000));

        assertThat(await(store.ingest().cancel("m-1", false))).isEqualTo(CancelOutcome.WITHDRAWN);

        assertThat(claim().messages()).isEmpty();
        assertThat(hget(store.keys().payloads(0), "m-1")).isNull();
        assertThat(score(store.keys().cancelled(0), "m-1")).isNotNull();
        assertThat(await(store.inspection().inspect("m-1")).state()).isEqualTo(MessageState.CANCELLED);
    }

    @Test
    void cancelForgetsTheAttemptsOfAMessageWaitingForARetry() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().reschedule(claim().messages().get(0), 60_000, true));

        assertThat(await(store.ingest().cancel("m-1", false))).isEqualTo(CancelOutcome.WITHDRAWN);

        assertThat(hget(store.keys().attempts(0), "m-1")).isNull();
    }

    @Test
    void aCancelledIdIsNotStoredAgainWithinTheWindow() throws Exception {
        schedule("m-1", new DueTime.AfterDelay(60_000));
        await(store.ingest().cancel("m-1", false));

        assertThat(schedule("m-1", new DueTime.At(1_000))).isEqualTo(new ScheduleResult(Outcome.CANCELLED, -1));
        assertThat(claim().messages()).isEmpty();
    }

    @Test
    void aCancelOfAnUnknownIdIsRecordedWhenAskedAndDropsTheLaterArrival() throws Exception {
        assertThat(await(store.ingest().cancel("early", true))).isEqualTo(CancelOutcome.RECORDED);

        assertThat(schedule("early", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(schedule("early", new DueTime.At(1_000)).outcome()).as("a redelivered copy too").isEqualTo(Outcome.CANCELLED);
        assertThat(claim().messages()).isEmpty();
    }

    @Test
    void aCancelOfAnUnknownIdRecordsNothingWhenNotAsked() throws Exception {
        assertThat(await(store.ingest().cancel("unknown", false))).isEqualTo(CancelOutcome.NOT_FOUND);

        assertThat(score(store.keys().cancelled(0), "unknown")).isNull();
        assertThat(schedule("unknown", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.SCHEDULED);
    }

    @Test
    void aCancelRecordExpiresWithTheWindow() throws Exception {
        store = storeWith(300);
        await(store.ingest().cancel("early", true));
        assertThat(schedule("early", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.CANCELLED);

        Thread.sleep(600);

        assertThat(schedule("early", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.SCHEDULED);
    }

    @Test
    void theCancelScriptTrimsExpiredRecords() throws Exception {
        store = storeWith(300);
        await(store.ingest().cancel("old-1", true));
        await(store.ingest().cancel("old-2", true));
        Thread.sleep(600);

        await(store.ingest().cancel("new", true));

        assertThat(zrange(store.keys().cancelled(0))).containsExactly("new");
    }

    @Test
    void withAZeroWindowAPendingMessageIsWithdrawnButNothingIsRemembered() throws Exception {
        store = storeWith(0);
        schedule("m-1", new DueTime.AfterDelay(60_000));

        assertThat(await(store.ingest().cancel("m-1", true))).isEqualTo(CancelOutcome.WITHDRAWN);
        assertThat(await(store.ingest().cancel("other", true))).isEqualTo(CancelOutcome.NOT_FOUND);
        assertThat(zrange(store.keys().cancelled(0))).isEmpty();
    }

    @Test
    void anInFlightMessageCannotBeCancelledAndIsLeftAlone() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim().messages().get(0);

        assertThat(await(store.ingest().cancel("m-1", true))).isEqualTo(CancelOutcome.IN_FLIGHT);

        assertThat(score(store.keys().cancelled(0), "m-1")).isNull();
        assertThat(await(store.dispatch().acknowledge(0, List.of(claimed)))).isEqualTo(1);
    }

    @Test
    void aDeliveredMessageCannotBeCancelled() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, claim().messages()));

        assertThat(await(store.ingest().cancel("m-1", true))).isEqualTo(CancelOutcome.ALREADY_DELIVERED);
        assertThat(score(store.keys().cancelled(0), "m-1")).isNull();
    }

    @Test
    void aSecondCancelChangesNothing() throws Exception {
        schedule("m-1", new DueTime.AfterDelay(60_000));
        await(store.ingest().cancel("m-1", false));
        Long firstCancel = score(store.keys().cancelled(0), "m-1");

        assertThat(await(store.ingest().cancel("m-1", true))).isEqualTo(CancelOutcome.ALREADY_CANCELLED);
        assertThat(score(store.keys().cancelled(0), "m-1")).isEqualTo(firstCancel);
    }

    @Test
    void aDeadLetterIsReportedNotCancelled() throws Exception {
        await(store.ingest().storeDeadLetters(Map.of("dead-1", new byte[] {1})));

        assertThat(await(store.ingest().cancel("dead-1", true))).isEqualTo(CancelOutcome.DEAD_LETTER);
        assertThat(score(store.keys().cancelled(0), "dead-1")).isNull();
    }

    // --- changeDueTime ----------------------------------------------------------------------------------------

    @Test
    void reschedulingLaterMovesTheDueTimeAndKeepsTheEnvelope() throws Exception {
        schedule("m-1", new DueTime.At(1_000), "the body");
        long before = redisNowMs();

        DueTimeChange change = await(store.ingest().changeDueTime("m-1", new DueTime.AfterDelay(60_000)));

        assertThat(change.outcome()).isEqualTo(DueTimeChange.Outcome.CHANGED);
        assertThat(change.dueAt()).isBetween(before + 60_000, redisNowMs() + 60_000);
        assertThat(score(store.keys().due(0), "m-1")).isEqualTo(change.dueAt());
        assertThat(claim().messages()).isEmpty();
        assertThat(EnvelopeCodec.decode("m-1", await(store.inspection().inspect("m-1")).envelope()).body()).isEqualTo(bytes("the body"));
    }

    @Test
    void reschedulingEarlierMakesItClaimableNow() throws Exception {
        schedule("m-1", new DueTime.AfterDelay(600_000));

        assertThat(await(store.ingest().changeDueTime("m-1", new DueTime.At(2_000)))).isEqualTo(new DueTimeChange(DueTimeChange.Outcome.CHANGED, 2_000));

        ClaimedBatch batch = claim();
        assertThat(batch.messages()).extracting(ClaimedMessage::messageId).containsExactly("m-1");
        assertThat(batch.messages().get(0).dueAt()).isEqualTo(2_000);
    }

    @Test
    void reschedulingKeepsTheAttemptCount() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().reschedule(claim().messages().get(0), 60_000, true));

        await(store.ingest().changeDueTime("m-1", new DueTime.At(1_000)));

        assertThat(claim().messages().get(0).attempts()).isEqualTo(1);
    }

    @Test
    void reschedulingBeyondTheMaximumDelayChangesNothing() throws Exception {
        ScheduleResult stored = schedule("m-1", new DueTime.AfterDelay(1_000));

        DueTimeChange change = await(store.ingest().changeDueTime("m-1", new DueTime.At(redisNowMs() + MAX_DELAY_MS + 60_000)));

        assertThat(change).isEqualTo(new DueTimeChange(DueTimeChange.Outcome.DELAY_TOO_LONG, -1));
        assertThat(score(store.keys().due(0), "m-1")).isEqualTo(stored.dueAt());
    }

    @Test
    void anInFlightMessageCannotBeRescheduled() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        claim();

        assertThat(await(store.ingest().changeDueTime("m-1", new DueTime.AfterDelay(60_000))).outcome()).isEqualTo(DueTimeChange.Outcome.IN_FLIGHT);
        assertThat(score(store.keys().due(0), "m-1")).isNull();
    }

    @Test
    void onlyPendingMessagesCanBeRescheduled() throws Exception {
        schedule("cancelled", new DueTime.AfterDelay(60_000));
        await(store.ingest().cancel("cancelled", false));

        assertThat(await(store.ingest().changeDueTime("unknown", new DueTime.AfterDelay(0))).outcome()).isEqualTo(DueTimeChange.Outcome.NOT_PENDING);
        assertThat(await(store.ingest().changeDueTime("cancelled", new DueTime.AfterDelay(0))).outcome()).isEqualTo(DueTimeChange.Outcome.NOT_PENDING);
        assertThat(score(store.keys().due(0), "unknown")).isNull();
        assertThat(score(store.keys().due(0), "cancelled")).isNull();
    }

    @Test
    void controlsWorkInTheSlotOfTheirId() throws Exception {
        store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 4), new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000));
        for (int i = 0; i < 8; i++) {
            schedule("m-" + i, new DueTime.AfterDelay(60_000));
        }

        for (int i = 0; i < 8; i++) {
            assertThat(await(store.ingest().changeDueTime("m-" + i, new DueTime.AfterDelay(120_000))).outcome()).isEqualTo(DueTimeChange.Outcome.CHANGED);
            assertThat(await(store.ingest().cancel("m-" + i, false))).isEqualTo(CancelOutcome.WITHDRAWN);
            assertThat(score(store.keys().cancelled(store.keys().slotOf("m-" + i)), "m-" + i)).isNotNull();
        }
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private StoreFaces storeWith(long cancelWindowMs) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 1), new StoreLimits(MAX_DELAY_MS, WINDOW_MS, cancelWindowMs, 1_000, 60_000));
    }

    private ScheduleResult schedule(String id, DueTime dueTime) throws Exception {
        return schedule(id, dueTime, "body of " + id);
    }

    private ScheduleResult schedule(String id, DueTime dueTime, String body) throws Exception {
        Envelope envelope = new Envelope(id, "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(), bytes(body));
        return await(store.ingest().schedule(List.of(new ScheduleRequest(id, dueTime, envelope)))).get(0);
    }

    private ClaimedBatch claim() throws Exception {
        return await(store.dispatch().claim(0, 10, 60_000));
    }

    private static Long score(String key, String member) throws Exception {
        Double score = redis.connection().async().zscore(bytes(key), bytes(member)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }

    private static List<String> zrange(String key) throws Exception {
        return redis.connection().async().zrange(bytes(key), 0, -1).get(10, TimeUnit.SECONDS).stream()
                .map(b -> new String(b, StandardCharsets.UTF_8)).toList();
    }

    private static byte[] hget(String key, String field) throws Exception {
        return redis.connection().async().hget(bytes(key), bytes(field)).get(10, TimeUnit.SECONDS);
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1_000;
    }
}
