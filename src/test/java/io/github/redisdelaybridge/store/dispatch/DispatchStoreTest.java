package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static io.github.redisdelaybridge.testkit.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult.Outcome;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.script.LuaScript;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;


/** The store through its faces (stored by ingest, claimed and settled by dispatch) and their Lua scripts against the real Redis on 127.0.0.1:6379, one key prefix per test. */
class DispatchStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-store");

    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long DEDUPE_WINDOW_MS = 60_000;
    private static final long LEASE_MS = 60_000;

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = storeWith(1, DEDUPE_WINDOW_MS);
    }

    // --- schedule -------------------------------------------------------------------------------------------

    @Test
    void scheduleWithDelayIsDueAtRedisTimePlusDelay() throws Exception {
        long before = redisNowMs();
        ScheduleResult result = schedule("m-1", new DueTime.AfterDelay(5_000));
        long after = redisNowMs();

        assertThat(result.outcome()).isEqualTo(Outcome.SCHEDULED);
        assertThat(result.dueAt()).isBetween(before + 5_000, after + 5_000);
        assertThat(dueScore(0, "m-1")).isEqualTo(result.dueAt());
    }

    @Test
    void scheduleStoresTheEncodedEnvelope() throws Exception {
        Envelope envelope = new Envelope("m-1", "kafka:out", "kafka:in/0@1", new byte[] {1, 2},
                List.of(MessageHeader.text("h", "v"), new MessageHeader("n", null)), Map.of("p", "q"), new byte[] {(byte) 0xFF, 0});

        await(store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.AfterDelay(0), envelope))));

        assertThat(EnvelopeCodec.decode("m-1", await(store.inspection().inspect("m-1")).envelope())).isEqualTo(envelope);
    }

    @Test
    void scheduleAtUsesTheGivenInstant() throws Exception {
        long at = redisNowMs() + 10_000;

        ScheduleResult result = schedule("m-1", new DueTime.At(at));

        assertThat(result).isEqualTo(new ScheduleResult(Outcome.SCHEDULED, at));
        assertThat(dueScore(0, "m-1")).isEqualTo(at);
    }

    @Test
    void scheduleAtInThePastIsDueAtOnce() throws Exception {
        ScheduleResult result = schedule("m-1", new DueTime.At(1_000));

        assertThat(result).isEqualTo(new ScheduleResult(Outcome.SCHEDULED, 1_000));
        assertThat(ids(claim(0, 10))).containsExactly("m-1");
    }

    @Test
    void copyOfPendingMessageIsNotStoredAgainWhateverItsDueTime() throws Exception {
        ScheduleResult first = schedule("m-1", new DueTime.At(1_000), "same");

        ScheduleResult second = schedule("m-1", new DueTime.AfterDelay(600_000), "same");

        assertThat(second).isEqualTo(new ScheduleResult(Outcome.DUPLICATE_PENDING, -1));
        assertThat(dueScore(0, "m-1")).isEqualTo(first.dueAt());
    }

    @Test
    void copyFromAnotherOriginIsStillACopy() throws Exception {
        schedule("m-1", new DueTime.At(1_000), "same");
        Envelope resent = new Envelope("m-1", "kafka:out", "kafka:delay.inbound/3@9999", null, List.of(), Map.of(),
                "same".getBytes(StandardCharsets.UTF_8));

        List<ScheduleResult> results = await(store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.At(1_000), resent))));

        assertThat(results).extracting(ScheduleResult::outcome).containsExactly(Outcome.DUPLICATE_PENDING);
    }

    @Test
    void reusedIdWithAnotherPayloadIsToldApartAndKeepsTheFirstEnvelope() throws Exception {
        ScheduleResult first = schedule("m-1", new DueTime.At(1_000), "first");

        ScheduleResult second = schedule("m-1", new DueTime.AfterDelay(600_000), "second");

        assertThat(second).isEqualTo(new ScheduleResult(Outcome.DUPLICATE_ID, -1));
        assertThat(dueScore(0, "m-1")).isEqualTo(first.dueAt());
        ClaimedMessage claimed = claim(0, 10).messages().get(0);
        assertThat(bodyOf(claimed)).isEqualTo("first");
    }

    @Test
    void duplicateOfInFlightIdIsNotStoredAgain() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        claim(0, 10);

        assertThat(schedule("m-1", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.DUPLICATE_PENDING);
        assertThat(dueScore(0, "m-1")).isNull();
    }

    @Test
    void duplicateWithinOneBatchIsStoredOnce() throws Exception {
        List<ScheduleResult> results = await(store.ingest().schedule(List.of(
                request("m-1", new DueTime.At(1_000), "first"), request("m-1", new DueTime.At(2_000), "second"))));

        assertThat(results).extracting(ScheduleResult::outcome).containsExactly(Outcome.SCHEDULED, Outcome.DUPLICATE_ID);
        assertThat(bodyOf(claim(0, 10).messages().get(0))).isEqualTo("first");
    }

    @Test
    void scheduleAtBeyondTheMaximumDelayIsTooLongAndNotStored() throws Exception {
        long now = redisNowMs();

        ScheduleResult tooLate = schedule("late", new DueTime.At(now + MAX_DELAY_MS + 60_000));
        ScheduleResult inTime = schedule("fine", new DueTime.At(now + MAX_DELAY_MS - 60_000));

        assertThat(tooLate).isEqualTo(new ScheduleResult(Outcome.DELAY_TOO_LONG, -1));
        assertThat(hget(store.keys().payloads(0), "late")).isNull();
        assertThat(dueScore(0, "late")).isNull();
        assertThat(inTime.outcome()).isEqualTo(Outcome.SCHEDULED);
    }

    @Test
    void scheduleWithDelayBeyondTheMaximumIsTooLong() throws Exception {
        assertThat(schedule("m-1", new DueTime.AfterDelay(MAX_DELAY_MS + 1_000)).outcome()).isEqualTo(Outcome.DELAY_TOO_LONG);
    }

    @Test
    void batchResultsFollowRequestOrderAcrossSlotsAndChunks() throws Exception {
        store = storeWith(3, DEDUPE_WINDOW_MS);
        schedule("already-there", new DueTime.At(1_000));
        long now = redisNowMs();
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            requests.add(request("m-" + i, new DueTime.At(10_000 + i), "b"));
        }
        requests.add(3, request("already-there", new DueTime.At(1_000), "body of already-there"));
        requests.add(500, request("too-late", new DueTime.At(now + 2 * MAX_DELAY_MS), "b"));

        List<ScheduleResult> results = await(store.ingest().schedule(requests));

        assertThat(results).hasSize(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            String id = requests.get(i).messageId();
            ScheduleResult result = results.get(i);
            switch (id) {
                case "already-there" -> assertThat(result.outcome()).isEqualTo(Outcome.DUPLICATE_PENDING);
                case "too-late" -> assertThat(result.outcome()).isEqualTo(Outcome.DELAY_TOO_LONG);
                default -> assertThat(result).as(id).isEqualTo(
                        new ScheduleResult(Outcome.SCHEDULED, ((DueTime.At) requests.get(i).dueTime()).epochMs()));
            }
        }
    }

    // --- claim ---------------------------------------------------------------------------------------------

    @Test
    void claimReturnsOnlyDueMessagesInDueOrder() throws Exception {
        schedule("c", new DueTime.At(3_000));
        schedule("a", new DueTime.At(1_000));
        ScheduleResult future = schedule("future", new DueTime.AfterDelay(60_000));
        schedule("b", new DueTime.At(2_000));

        ClaimedBatch batch = claim(0, 10);

        assertThat(ids(batch)).containsExactly("a", "b", "c");
        assertThat(batch.messages()).extracting(ClaimedMessage::dueAt).containsExactly(1_000L, 2_000L, 3_000L);
        assertThat(batch.nextDue()).isEqualTo(future.dueAt());
    }

    @Test
    void claimedMessageCarriesSlotAttemptsLeaseDeadlineAndEnvelope() throws Exception {
        schedule("m-1", new DueTime.At(1_000), "payload");

        ClaimedBatch batch = claim(0, 10);
        ClaimedMessage message = batch.messages().get(0);

        assertThat(message.slot()).isZero();
        assertThat(message.attempts()).isZero();
        assertThat(message.leaseDeadline()).isEqualTo(batch.redisNow() + LEASE_MS);
        assertThat(EnvelopeCodec.decode("m-1", message.encodedEnvelope())).isEqualTo(envelope("m-1", "payload"));
    }

    @Test
    void claimRespectsTheLimitAndReportsTheEarliestRemaining() throws Exception {
        for (int i = 1; i <= 5; i++) {
            schedule("m-" + i, new DueTime.At(i * 1_000L));
        }

        ClaimedBatch first = claim(0, 2);
        ClaimedBatch rest = claim(0, 10);

        assertThat(ids(first)).containsExactly("m-1", "m-2");
        assertThat(first.nextDue()).isEqualTo(3_000);
        assertThat(ids(rest)).containsExactly("m-3", "m-4", "m-5");
        assertThat(rest.nextDue()).isEqualTo(-1);
    }

    @Test
    void claimOfEmptySlotReturnsNothingAndRedisTime() throws Exception {
        long before = redisNowMs();
        ClaimedBatch batch = claim(0, 10);
        long after = redisNowMs();

        assertThat(batch.messages()).isEmpty();
        assertThat(batch.nextDue()).isEqualTo(-1);
        assertThat(batch.redisNow()).isBetween(before, after);
    }

    @Test
    void claimMovesMessagesInFlightUnderTheLease() throws Exception {
        schedule("m-1", new DueTime.At(1_000));

        ClaimedBatch batch = claim(0, 10);

        assertThat(dueScore(0, "m-1")).isNull();
        assertThat(inFlightScore(0, "m-1")).isEqualTo(batch.redisNow() + LEASE_MS);
        assertThat(batch.messages().get(0).leaseDeadline()).as("the lease token is the in-flight score").isEqualTo(inFlightScore(0, "m-1"));
        assertThat(hget(store.keys().payloads(0), "m-1")).isNotNull();
        assertThat(claim(0, 10).messages()).isEmpty();
    }

    @Test
    void twoConcurrentClaimersNeverGetTheSameMessageAndTogetherGetAll() throws Exception {
        int count = 2_000;
        List<ScheduleRequest> requests = IntStream.range(0, count)
                .mapToObj(i -> request("m-" + i, new DueTime.At(1_000 + i), "b")).toList();
        assertThat(await(store.ingest().schedule(requests))).extracting(ScheduleResult::outcome).containsOnly(Outcome.SCHEDULED);

        ExecutorService threads = Executors.newFixedThreadPool(2);
        CyclicBarrier start = new CyclicBarrier(2);
        try (RedisConnection second = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(10))) {
            StoreFaces otherInstance = StoreFaces.over(second.async(), store.keys(), new StoreLimits(MAX_DELAY_MS, DEDUPE_WINDOW_MS, DEDUPE_WINDOW_MS, 1_000, 60_000));
            Future<List<String>> byFirst = threads.submit(() -> claimUntilEmpty(store, start));
            Future<List<String>> bySecond = threads.submit(() -> claimUntilEmpty(otherInstance, start));
            List<String> first = byFirst.get(60, TimeUnit.SECONDS);
            List<String> secondIds = bySecond.get(60, TimeUnit.SECONDS);

            List<String> all = new ArrayList<>(first);
            all.addAll(secondIds);
            assertThat(first).isNotEmpty();
            assertThat(secondIds).isNotEmpty();
            assertThat(all).doesNotHaveDuplicates().hasSize(count)
                    .containsExactlyInAnyOrderElementsOf(requests.stream().map(ScheduleRequest::messageId).toList());
        } finally {
            threads.shutdownNow();
        }
    }

    // --- acknowledge ---------------------------------------------------------------------------------------

    @Test
    void acknowledgeWithTheLeaseTokenDeletesTheMessage() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim(0, 10).messages().get(0);

        long acknowledged = await(store.dispatch().acknowledge(0, List.of(claimed)));

        assertThat(acknowledged).isEqualTo(1);
        assertThat(inFlightScore(0, "m-1")).isNull();
        assertThat(hget(store.keys().payloads(0), "m-1")).isNull();
        assertThat(deliveredScore(0, "m-1")).isNotNull();
    }

    @Test
    void deliveredIdIsRefusedWithinTheDedupeWindow() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, claim(0, 10).messages()));

        assertThat(schedule("m-1", new DueTime.AfterDelay(0))).isEqualTo(new ScheduleResult(Outcome.DUPLICATE_DELIVERED, -1));
        assertThat(claim(0, 10).messages()).isEmpty();
    }

    @Test
    void deliveredIdIsAcceptedAgainAfterTheDedupeWindow() throws Exception {
        store = storeWith(1, 300);
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, claim(0, 10).messages()));
        assertThat(schedule("m-1", new DueTime.AfterDelay(0)).outcome()).isEqualTo(Outcome.DUPLICATE_DELIVERED);

        Thread.sleep(600);

        assertThat(schedule("m-1", new DueTime.AfterDelay(0)).outcome()).isEqualTo(Outcome.SCHEDULED);
    }

    @Test
    void zeroDedupeWindowKeepsNoDeliveredRecord() throws Exception {
        store = storeWith(1, 0);
        schedule("m-1", new DueTime.At(1_000));
        await(store.dispatch().acknowledge(0, claim(0, 10).messages()));

        assertThat(deliveredScore(0, "m-1")).isNull();
        assertThat(schedule("m-1", new DueTime.At(1_000)).outcome()).isEqualTo(Outcome.SCHEDULED);
    }

    @Test
    void batchesLargerThanOneScriptCallAreClaimedAndAcknowledgedWhole() throws Exception {
        int count = ScriptRunner.MESSAGES_PER_CALL * 5 + 50;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            requests.add(new ScheduleRequest("m-" + i, new DueTime.At(1_000 + i), envelope("m-" + i, "body-" + i)));
        }
        requests.add(new ScheduleRequest("later", new DueTime.AfterDelay(600_000), envelope("later", "later")));
        await(store.ingest().schedule(requests));

        ClaimedBatch first = claim(0, count - 10);
        ClaimedBatch rest = claim(0, count);

        assertThat(first.messages()).extracting(ClaimedMessage::messageId)
                .containsExactlyElementsOf(IntStream.range(0, count - 10).mapToObj(i -> "m-" + i).toList());
        assertThat(first.nextDue()).isEqualTo(1_000 + count - 10);
        assertThat(rest.messages()).hasSize(10);
        assertThat(rest.nextDue()).isGreaterThan(rest.redisNow() + 500_000);
        List<ClaimedMessage> claimed = new ArrayList<>(first.messages());
        claimed.addAll(rest.messages());
        assertThat(await(store.dispatch().acknowledge(0, claimed))).isEqualTo(count);
        assertThat(hlen(store.keys().payloads(0))).isEqualTo(1);
        assertThat(deliveredScore(0, "m-" + (count - 1))).isNotNull();
    }

    @Test
    void acknowledgeWithAWrongTokenDeletesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim(0, 10).messages().get(0);

        long acknowledged = await(store.dispatch().acknowledge(0, List.of(withLeaseDeadline(claimed, claimed.leaseDeadline() - 1))));

        assertThat(acknowledged).isZero();
        assertThat(hget(store.keys().payloads(0), "m-1")).isNotNull();
        assertThat(inFlightScore(0, "m-1")).isNotNull();
        assertThat(deliveredScore(0, "m-1")).isNull();
        assertThat(await(store.dispatch().acknowledge(0, List.of(claimed)))).isEqualTo(1);
    }

    @Test
    void acknowledgeCountsOnlyMessagesStillLeasedToTheCaller() throws Exception {
        for (int i = 1; i <= 3; i++) {
            schedule("m-" + i, new DueTime.At(i * 1_000L));
        }
        List<ClaimedMessage> claimed = claim(0, 10).messages();
        List<ClaimedMessage> mixed = List.of(claimed.get(0), withLeaseDeadline(claimed.get(1), claimed.get(1).leaseDeadline() - 1), claimed.get(2));

        assertThat(await(store.dispatch().acknowledge(0, mixed))).isEqualTo(2);
        assertThat(hget(store.keys().payloads(0), "m-2")).isNotNull();
        assertThat(hget(store.keys().payloads(0), "m-1")).isNull();
    }

    @Test
    void secondAcknowledgeOfTheSameClaimAcknowledgesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        List<ClaimedMessage> claimed = claim(0, 10).messages();

        assertThat(await(store.dispatch().acknowledge(0, claimed))).isEqualTo(1);
        assertThat(await(store.dispatch().acknowledge(0, claimed))).isZero();
    }

    // --- reschedule ----------------------------------------------------------------------------------------

    @Test
    void rescheduleWithTheLeaseMovesTheMessageBackToDueAfterTheDelay() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim(0, 10).messages().get(0);

        long before = redisNowMs();
        long attempts = await(store.dispatch().reschedule(claimed, 30_000, true));
        long after = redisNowMs();

        assertThat(attempts).isEqualTo(1);
        assertThat(dueScore(0, "m-1")).isBetween(before + 30_000, after + 30_000);
        assertThat(inFlightScore(0, "m-1")).isNull();
        assertThat(hget(store.keys().payloads(0), "m-1")).isNotNull();
        assertThat(claim(0, 10).messages()).isEmpty();
    }

    @Test
    void rescheduleCountsAFailedAttemptOnlyWhenAsked() throws Exception {
        schedule("m-1", new DueTime.At(1_000));

        assertThat(await(store.dispatch().reschedule(claimOne(), 0, false))).isZero();
        ClaimedMessage released = claimOne();
        assertThat(released.attempts()).isZero();

        assertThat(await(store.dispatch().reschedule(released, 0, true))).isEqualTo(1);
        ClaimedMessage failedOnce = claimOne();
        assertThat(failedOnce.attempts()).isEqualTo(1);

        assertThat(await(store.dispatch().reschedule(failedOnce, 0, true))).isEqualTo(2);
        assertThat(await(store.dispatch().reschedule(claimOne(), 0, false))).isEqualTo(2);
        assertThat(claimOne().attempts()).isEqualTo(2);
    }

    @Test
    void rescheduleWithAStaleTokenChangesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim(0, 10).messages().get(0);
        long leaseDeadline = inFlightScore(0, "m-1");

        assertThat(await(store.dispatch().reschedule(withLeaseDeadline(claimed, leaseDeadline - 1), 0, true))).isEqualTo(-1);

        assertThat(dueScore(0, "m-1")).isNull();
        assertThat(inFlightScore(0, "m-1")).isEqualTo(leaseDeadline);
        assertThat(hget(store.keys().attempts(0), "m-1")).isNull();
    }

    @Test
    void rescheduleAfterAcknowledgeChangesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claim(0, 10).messages().get(0);
        await(store.dispatch().acknowledge(0, List.of(claimed)));

        assertThat(await(store.dispatch().reschedule(claimed, 0, true))).isEqualTo(-1);
        assertThat(dueScore(0, "m-1")).isNull();
    }

    // --- releaseClaim ----------------------------------------------------------------------------------------

    @Test
    void releaseGivesBackWhatAnUnansweredRoundClaimedDueNowWithoutCountingAnAttempt() throws Exception {
        for (int i = 0; i < 250; i++) {
            schedule("r-" + i, new DueTime.At(1_000));
        }
        ClaimTag lost = new ClaimTag("claimer1", 7);
        // 250 in three calls of at most 100: the record keeps each call's lease deadline
        List<ClaimedMessage> claimedButNeverSeen = await(store.dispatch().claim(0, 250, LEASE_MS, lost)).messages();
        assertThat(claimedButNeverSeen).hasSize(250);

        long before = redisNowMs();
        assertThat(await(store.dispatch().releaseClaim(0, lost))).isEqualTo(250);
        long after = redisNowMs();

        assertThat(inFlightScore(0, "r-0")).isNull();
        assertThat(dueScore(0, "r-249")).isBetween(before, after);
        List<ClaimedMessage> again = claim(0, 1_000).messages();
        assertThat(again).hasSize(250).allSatisfy(m -> assertThat(m.attempts()).isZero());
        assertThat(await(store.dispatch().releaseClaim(0, lost))).as("released once").isZero();
    }

    @Test
    void releaseTouchesNothingOfAnotherRoundOrClaimer() throws Exception {
        schedule("mine", new DueTime.At(1_000));
        ClaimedMessage mine = await(store.dispatch().claim(0, 10, LEASE_MS, new ClaimTag("claimer1", 1))).messages().get(0);
        schedule("theirs", new DueTime.At(1_000));
        await(store.dispatch().claim(0, 10, LEASE_MS, new ClaimTag("claimer2", 1)));

        assertThat(await(store.dispatch().releaseClaim(0, new ClaimTag("claimer1", 2)))).as("a round that claimed nothing").isZero();
        assertThat(await(store.dispatch().releaseClaim(0, new ClaimTag("claimer3", 1)))).as("a claimer that claimed nothing").isZero();
        assertThat(inFlightScore(0, "mine")).isEqualTo(mine.leaseDeadline());
        assertThat(inFlightScore(0, "theirs")).isNotNull();

        assertThat(await(store.dispatch().releaseClaim(0, new ClaimTag("claimer1", 1)))).isEqualTo(1);
        assertThat(inFlightScore(0, "theirs")).as("claimed by another claimer in the same millisecond, maybe").isNotNull();
    }

    @Test
    void releaseLeavesAMessageThatWasReapedAndClaimedAgainAlone() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimTag lost = new ClaimTag("claimer1", 1);
        await(store.dispatch().claim(0, 10, 1, lost));
        while (await(store.dispatch().reapExpiredLeases(0, 10)) == 0) {
            Thread.sleep(1);
        }
        ClaimedMessage current = claimOne();

        assertThat(await(store.dispatch().releaseClaim(0, lost))).isZero();
        assertThat(inFlightScore(0, "m-1")).isEqualTo(current.leaseDeadline());
    }

    @Test
    void aClaimDropsTheRecordOfAClaimerWhoseLeasesAllPassed() throws Exception {
        // a dispatcher that stopped leaves its record; claims of the others clear it, one stale record per call at most
        schedule("gone", new DueTime.At(1_000));
        await(store.dispatch().claim(0, 10, 1, new ClaimTag("stopped", 1)));
        Thread.sleep(5);
        for (int round = 1; round <= 60 && hget(store.keys().claims(0), "stopped") != null; round++) {
            schedule("live-" + round, new DueTime.At(1_000));
            await(store.dispatch().claim(0, 10, LEASE_MS, new ClaimTag("running", round)));
        }

        assertThat(hget(store.keys().claims(0), "stopped")).as("the stopped claimer's record").isNull();
        assertThat(hget(store.keys().claims(0), "running")).as("the running claimer's record").isNotNull();
    }

    @Test
    void everyClaimCallThatLeasesGetsALeaseDeadlineOfItsOwn() throws Exception {
        // a deadline names one call's messages, so that a release gives back exactly those
        for (int i = 0; i < 50; i++) {
            schedule("u-" + i, new DueTime.At(1_000));
        }
        Set<Long> deadlines = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            deadlines.add(await(store.dispatch().claim(0, 1, LEASE_MS)).messages().get(0).leaseDeadline());
        }

        assertThat(deadlines).hasSize(50);
    }

    @Test
    void aClaimThatFailsOnAWrongTypeKeyClaimsNothingAndLosesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        redis().set(bytes(store.keys().inFlight(0)), bytes("not a sorted set")).get(10, TimeUnit.SECONDS);

        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> await(store.dispatch().claim(0, 10, LEASE_MS, new ClaimTag("c", 1)))))
                .hasMessageContaining("WRONGTYPE");

        assertThat(dueScore(0, "m-1")).as("still due: the script failed before its first write").isEqualTo(1_000);
        redis().del(bytes(store.keys().inFlight(0))).get(10, TimeUnit.SECONDS);
        assertThat(claimOne().messageId()).isEqualTo("m-1");
    }

    // --- recordFailure ---------------------------------------------------------------------------------------

    @Test
    void recordFailureCountsTheAttemptAndKeepsTheTimeOfTheFirstFailure() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        long before = redisNowMs();
        ClaimedMessage first = claimOne();

        RecordedFailure once = await(store.dispatch().recordFailure(first));

        assertThat(once.attempts()).isEqualTo(1);
        assertThat(once.failingSince()).isBetween(before, redisNowMs()).isEqualTo(once.redisNow());
        assertThat(once.failingForMs()).isZero();
        assertThat(inFlightScore(0, "m-1")).as("still leased: the caller reschedules or dead-letters it").isEqualTo(first.leaseDeadline());

        await(store.dispatch().reschedule(first, 0, false));
        Thread.sleep(30);
        RecordedFailure twice = await(store.dispatch().recordFailure(claimOne()));

        assertThat(twice.attempts()).isEqualTo(2);
        assertThat(twice.failingSince()).as("the first failure's time stays").isEqualTo(once.failingSince());
        assertThat(twice.failingForMs()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void recordFailureWithAStaleTokenChangesNothing() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage claimed = claimOne();

        assertThat(await(store.dispatch().recordFailure(withLeaseDeadline(claimed, claimed.leaseDeadline() - 1))).leaseLost()).isTrue();

        assertThat(hget(store.keys().attempts(0), "m-1")).isNull();
        assertThat(hget(store.keys().failingSince(0), "m-1")).isNull();
    }

    @Test
    void theFirstFailuresTimeIsForgottenWithTheMessage() throws Exception {
        schedule("acked", new DueTime.At(1_000));
        ClaimedMessage acked = claimOne();
        await(store.dispatch().recordFailure(acked));
        await(store.dispatch().acknowledge(0, List.of(acked)));

        schedule("cancelled", new DueTime.At(1_000));
        ClaimedMessage cancelled = claimOne();
        await(store.dispatch().recordFailure(cancelled));
        await(store.dispatch().reschedule(cancelled, 60_000, false));
        await(store.ingest().cancel("cancelled", false));

        schedule("dead", new DueTime.At(1_000));
        ClaimedMessage dead = claimOne();
        await(store.dispatch().recordFailure(dead));
        assertThat(await(store.dispatch().deadLetter(dead, bytes("record")))).isEqualTo(1);

        for (String id : List.of("acked", "cancelled", "dead")) {
            assertThat(hget(store.keys().failingSince(0), id)).as(id).isNull();
            assertThat(hget(store.keys().attempts(0), id)).as(id).isNull();
        }
    }

    // --- reapExpiredLeases -----------------------------------------------------------------------------------

    @Test
    void reapReturnsExpiredClaimsToDueWithOneMoreAttempt() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        claimWithExpiredLease();

        long before = redisNowMs();
        long reaped = await(store.dispatch().reapExpiredLeases(0, 100));
        long after = redisNowMs();

        assertThat(reaped).isEqualTo(1);
        assertThat(inFlightScore(0, "m-1")).isNull();
        assertThat(dueScore(0, "m-1")).isBetween(before, after);
        ClaimedMessage reclaimed = claimOne();
        assertThat(reclaimed.attempts()).isEqualTo(1);
        assertThat(reclaimed.dueAt()).isBetween(before, after);
    }

    @Test
    void reapMakesTheOldLeaseTokenUseless() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        ClaimedMessage stale = claimWithExpiredLease().messages().get(0);
        await(store.dispatch().reapExpiredLeases(0, 100));
        ClaimedMessage current = claimOne();

        assertThat(await(store.dispatch().acknowledge(0, List.of(stale)))).isZero();
        assertThat(await(store.dispatch().reschedule(stale, 0, true))).isEqualTo(-1);
        assertThat(hget(store.keys().payloads(0), "m-1")).isNotNull();
        assertThat(await(store.dispatch().acknowledge(0, List.of(current)))).isEqualTo(1);
    }

    @Test
    void reapLeavesUnexpiredLeasesAlone() throws Exception {
        schedule("m-1", new DueTime.At(1_000));
        claim(0, 10);

        assertThat(await(store.dispatch().reapExpiredLeases(0, 100))).isZero();
        assertThat(inFlightScore(0, "m-1")).isNotNull();
    }

    @Test
    void reapRespectsItsLimit() throws Exception {
        for (int i = 1; i <= 5; i++) {
            schedule("m-" + i, new DueTime.At(i * 1_000L));
        }
        claimWithExpiredLease();

        assertThat(await(store.dispatch().reapExpiredLeases(0, 2))).isEqualTo(2);
        assertThat(await(store.dispatch().reapExpiredLeases(0, 2))).isEqualTo(2);
        assertThat(await(store.dispatch().reapExpiredLeases(0, 2))).isEqualTo(1);
        assertThat(await(store.dispatch().reapExpiredLeases(0, 2))).isZero();
    }

    // --- slots and scripts --------------------------------------------------------------------------------

    @Test
    void messagesSpreadOverSlotsAndEverySlotIsClaimable() throws Exception {
        int slots = 4;
        store = storeWith(slots, DEDUPE_WINDOW_MS);
        List<ScheduleRequest> requests = IntStream.range(0, 400).mapToObj(i -> request("m-" + i, new DueTime.At(1_000), "b")).toList();
        await(store.ingest().schedule(requests));

        Set<String> claimedIds = new HashSet<>();
        for (int slot = 0; slot < slots; slot++) {
            ClaimedBatch batch = claim(slot, 1_000);
            assertThat(batch.messages()).as("messages claimed from slot %d", slot).hasSizeBetween(50, 150);
            for (ClaimedMessage message : batch.messages()) {
                assertThat(message.slot()).isEqualTo(slot).isEqualTo(store.keys().slotOf(message.messageId()));
                claimedIds.add(message.messageId());
            }
        }
        assertThat(claimedIds).containsExactlyInAnyOrderElementsOf(requests.stream().map(ScheduleRequest::messageId).toList());
    }

    @Test
    void messageIsStoredUnderTheKeysOfItsSlot() throws Exception {
        store = storeWith(4, DEDUPE_WINDOW_MS);
        schedule("m-1", new DueTime.At(1_000));
        int slot = store.keys().slotOf("m-1");

        for (int other = 0; other < 4; other++) {
            assertThat(hget(store.keys().payloads(other), "m-1") != null).as("payload in slot %d", other).isEqualTo(other == slot);
        }
    }

    @Test
    void scriptsStillRunAfterRedisForgetsThem() throws Exception {
        schedule("warm-up", new DueTime.At(1_000));
        String scheduleSha = sha1OfScript("schedule");
        String claimSha = sha1OfScript("claim");
        assertThat(redis().scriptExists(scheduleSha).get(10, TimeUnit.SECONDS)).containsExactly(true);

        // SCRIPT FLUSH empties the script cache, as a Redis restart or failover would
        assertThat(redis().scriptFlush().get(10, TimeUnit.SECONDS)).isEqualTo("OK");

        assertThat(schedule("m-1", new DueTime.At(2_000)).outcome()).isEqualTo(Outcome.SCHEDULED);
        assertThat(ids(claim(0, 10))).containsExactly("warm-up", "m-1");
        assertThat(redis().scriptExists(scheduleSha, claimSha).get(10, TimeUnit.SECONDS)).containsExactly(true, true);
    }

    // --- helpers ------------------------------------------------------------------------------------------

    private StoreFaces storeWith(int slots, long dedupeWindowMs) {
        return StoreFaces.over(redis(), new Keys(redis.prefix(), slots), new StoreLimits(MAX_DELAY_MS, dedupeWindowMs, dedupeWindowMs, 1_000, 60_000));
    }

    /** The standalone connection's full command set (the store itself only needs scripting). */
    private static io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands<byte[], byte[]> redis() {
        return redis.connection().async();
    }

    private ScheduleResult schedule(String id, DueTime dueTime) throws Exception {
        return schedule(id, dueTime, "body of " + id);
    }

    private ScheduleResult schedule(String id, DueTime dueTime, String body) throws Exception {
        List<ScheduleResult> results = await(store.ingest().schedule(List.of(request(id, dueTime, body))));
        assertThat(results).hasSize(1);
        return results.get(0);
    }

    private static ScheduleRequest request(String id, DueTime dueTime, String body) {
        return new ScheduleRequest(id, dueTime, envelope(id, body));
    }

    private static Envelope envelope(String id, String body) {
        return new Envelope(id, "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(), body.getBytes(StandardCharsets.UTF_8));
    }

    private ClaimedBatch claim(int slot, int limit) throws Exception {
        return await(store.dispatch().claim(slot, limit, LEASE_MS));
    }

    /** A claim of the shortest lease (1 ms), returned once Redis's clock has passed its deadline: a crashed holder's. */
    private ClaimedBatch claimWithExpiredLease() throws Exception {
        ClaimedBatch batch = await(store.dispatch().claim(0, 10, 1));
        while (redisNowMs() <= batch.redisNow() + 1) {
            Thread.sleep(1);
        }
        return batch;
    }

    private ClaimedMessage claimOne() throws Exception {
        List<ClaimedMessage> messages = claim(0, 10).messages();
        assertThat(messages).hasSize(1);
        return messages.get(0);
    }

    private static List<String> claimUntilEmpty(StoreFaces claimer, CyclicBarrier start) throws Exception {
        start.await(10, TimeUnit.SECONDS);
        List<String> claimed = new ArrayList<>();
        for (int round = 1; ; round++) {
            ClaimedBatch batch = await(claimer.dispatch().claim(0, 7, LEASE_MS));
            if (batch.messages().isEmpty()) {
                return claimed;
            }
            claimed.addAll(ids(batch));
        }
    }

    private static List<String> ids(ClaimedBatch batch) {
        return batch.messages().stream().map(ClaimedMessage::messageId).toList();
    }

    private static String bodyOf(ClaimedMessage message) {
        return text(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope()).body());
    }

    private static ClaimedMessage withLeaseDeadline(ClaimedMessage message, long leaseDeadline) {
        return new ClaimedMessage(message.slot(), message.messageId(), message.member(), message.idResolved(), message.dueAt(),
                message.attempts(), message.encodedEnvelope(), leaseDeadline, message.originalDueAt());
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(text(time.get(0))) * 1_000 + Long.parseLong(text(time.get(1))) / 1_000;
    }

    /** Due time of a waiting message, or null if it is not waiting. */
    private Long dueScore(int slot, String id) throws Exception {
        return score(store.keys().due(slot), id);
    }

    /** Lease deadline of a claimed message, or null if it is not in flight. */
    private Long inFlightScore(int slot, String id) throws Exception {
        return score(store.keys().inFlight(slot), id);
    }

    /** Delivery time of a remembered delivered id, or null. */
    private Long deliveredScore(int slot, String id) throws Exception {
        return score(store.keys().delivered(slot), id);
    }

    private static Long score(String key, String member) throws Exception {
        Double score = redis().zscore(bytes(key), bytes(member)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }

    private static byte[] hget(String key, String field) throws Exception {
        return redis().hget(bytes(key), bytes(field)).get(10, TimeUnit.SECONDS);
    }

    private static long hlen(String key) throws Exception {
        return redis().hlen(bytes(key)).get(10, TimeUnit.SECONDS);
    }

    private static String sha1OfScript(String name) {
        return LuaScript.load(name).sha1();
    }
}
