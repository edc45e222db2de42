package io.github.redisdelaybridge.store.dispatch;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static io.github.redisdelaybridge.testkit.Utf8.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code takeBackLeases.lua} against the real Redis: what a dead process of this instance id leased, in every round, goes back
 * to the due set at once; never a live process's (another instance's, or a process that took the id later), never a message
 * settled meanwhile, never a deadline another claimer shares, never before a message claimed ahead is due.
 */
class TakeBackLeasesStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-take-back");

    private static final long LEASE_MS = 60_000;
    private static final String INSTANCE = "bridge-0";
    private static final String DEAD = INSTANCE + "/dead";
    private static final String OWN = INSTANCE + "/own";

    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 1), new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
    }

    @Test
    void onlyTheDeadProcesssLeasesOfEveryRoundGoBackDueNowWithTheirAttempts() throws Exception {
        schedule("dead-1");
        claim(DEAD, 1, LEASE_MS);
        schedule("dead-2", "dead-3");
        claim(DEAD, 2, LEASE_MS); // a later round: the claim records keep only the latest, the lease claimers every one
        redis.connection().async().hset(bytes(store.keys().attempts(0)), bytes("dead-1"), bytes("2")).get(10, TimeUnit.SECONDS);
        schedule("other-instance");
        ClaimedMessage otherInstance = claim("bridge-1/live", 1, LEASE_MS).get(0);
        schedule("older-release");
        ClaimedMessage olderRelease = claim("5f3a9c", 1, LEASE_MS).get(0);
        Thread.sleep(2);
        long tookIdAt = redisNowMs();
        Thread.sleep(2);
        schedule("later-process");
        ClaimedMessage laterProcess = claim(INSTANCE + "/later", 1, LEASE_MS).get(0);
        schedule("own");
        ClaimedMessage own = claim(OWN, 1, LEASE_MS).get(0);

        long before = redisNowMs();
        assertThat(await(store.dispatch().takeBackLeases(0, INSTANCE, OWN, tookIdAt))).isEqualTo(3);
        long after = redisNowMs();

        for (String id : List.of("dead-1", "dead-2", "dead-3")) {
            assertThat(score(store.keys().inFlight(0), id)).as(id + " in flight").isNull();
            assertThat(score(store.keys().due(0), id)).as(id + " due").isBetween(before, after);
        }
        assertThat(text(redis.connection().async().hget(bytes(store.keys().attempts(0)), bytes("dead-1")).get(10, TimeUnit.SECONDS)))
                .as("attempts kept, none added").isEqualTo("2");
        assertThat(score(store.keys().inFlight(0), "other-instance")).isEqualTo(otherInstance.leaseDeadline());
        assertThat(score(store.keys().inFlight(0), "older-release")).as("a claimer id without an instance id")
                .isEqualTo(olderRelease.leaseDeadline());
        assertThat(score(store.keys().inFlight(0), "later-process")).as("claimed after the caller took the id")
                .isEqualTo(laterProcess.leaseDeadline());
        assertThat(score(store.keys().inFlight(0), "own")).isEqualTo(own.leaseDeadline());
        assertThat(await(store.dispatch().takeBackLeases(0, INSTANCE, OWN, tookIdAt))).as("given back once").isZero();
    }

    @Test
    void aMessageSettledMeanwhileIsNotResurrected() throws Exception {
        schedule("acked", "rescheduled", "leased");
        List<ClaimedMessage> claimed = claim(DEAD, 1, LEASE_MS);
        ClaimedMessage acked = claimed.stream().filter(m -> m.messageId().equals("acked")).findFirst().orElseThrow();
        ClaimedMessage rescheduled = claimed.stream().filter(m -> m.messageId().equals("rescheduled")).findFirst().orElseThrow();
        assertThat(await(store.dispatch().acknowledge(0, List.of(acked)))).isEqualTo(1);
        assertThat(await(store.dispatch().reschedule(rescheduled, 600_000, true))).isEqualTo(1);
        long rescheduledDue = score(store.keys().due(0), "rescheduled");

        assertThat(await(store.dispatch().takeBackLeases(0, INSTANCE, OWN, redisNowMs() + 1))).isEqualTo(1);

        assertThat(score(store.keys().due(0), "acked")).as("acknowledged: gone for good").isNull();
        assertThat(redis.connection().async().hexists(bytes(store.keys().payloads(0)), bytes("acked")).get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(score(store.keys().due(0), "rescheduled")).as("rescheduled: its own due time").isEqualTo(rescheduledDue);
        assertThat(score(store.keys().due(0), "leased")).isNotNull();
    }

    @Test
    void aDeadlineAnotherClaimerSharesIsLeftToItsLease() throws Exception {
        schedule("shared");
        ClaimedMessage shared = claim(DEAD, 1, LEASE_MS).get(0);
        // the dead process's call settled, and a process with another lease duration got the same deadline: its entry is there too
        redis.connection().async().zadd(bytes(store.keys().leaseClaimers(0)), (double) shared.leaseDeadline(),
                bytes("bridge-1/live " + shared.leaseDeadline() + " 1 1")).get(10, TimeUnit.SECONDS);

        assertThat(await(store.dispatch().takeBackLeases(0, INSTANCE, OWN, redisNowMs() + 1))).isZero();
        assertThat(score(store.keys().inFlight(0), "shared")).isEqualTo(shared.leaseDeadline());
    }

    @Test
    void aMessageClaimedAheadGoesBackAtItsDueTimeNotBefore() throws Exception {
        long dueAt = redisNowMs() + 900;
        await(store.ingest().schedule(List.of(request("ahead", new DueTime.At(dueAt)))));
        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 10, LEASE_MS, new ClaimTag(DEAD, 1), 1_000)).messages();
        assertThat(claimed).hasSize(1);

        assertThat(await(store.dispatch().takeBackLeases(0, INSTANCE, OWN, redisNowMs() + 1))).isEqualTo(1);
        assertThat(score(store.keys().due(0), "ahead")).isEqualTo(dueAt);
    }

    @Test
    void leaseClaimersKeepOneEntryPerCallAndDropThosePastTheirDeadline() throws Exception {
        schedule("short");
        claim(DEAD, 1, 1);
        long shortLived = redisNowMs() + 2;
        while (redisNowMs() <= shortLived) {
            Thread.sleep(1);
        }
        schedule("long");
        claim(DEAD, 2, LEASE_MS);
        assertThat(redis.connection().async().zcard(bytes(store.keys().leaseClaimers(0))).get(10, TimeUnit.SECONDS))
                .as("the call whose deadline passed is dropped by the next claim").isEqualTo(1);
    }

    @Test
    void theReaperDropsLeaseClaimersPastTheirDeadlineWhenNobodyClaimsAnyMore() throws Exception {
        schedule("short");
        claim(DEAD, 1, 1);
        long shortLived = redisNowMs() + 2;
        while (redisNowMs() <= shortLived) {
            Thread.sleep(1);
        }
        await(store.dispatch().reapExpiredLeases(0, 10));
        assertThat(redis.connection().async().zcard(bytes(store.keys().leaseClaimers(0))).get(10, TimeUnit.SECONDS)).isZero();
    }

    private void schedule(String... ids) throws Exception {
        for (String id : ids) {
            await(store.ingest().schedule(List.of(request(id, new DueTime.At(1_000)))));
        }
    }

    private List<ClaimedMessage> claim(String claimer, long round, long leaseMs) throws Exception {
        return await(store.dispatch().claim(0, 10, leaseMs, new ClaimTag(claimer, round))).messages();
    }

    private static ScheduleRequest request(String id, DueTime dueTime) {
        return new ScheduleRequest(id, dueTime, new Envelope(id, "kafka:out", "kafka:in/0@1", null, List.of(), Map.of(),
                ("body of " + id).getBytes(StandardCharsets.UTF_8)));
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(text(time.get(0))) * 1_000 + Long.parseLong(text(time.get(1))) / 1_000;
    }

    private static Long score(String key, String member) throws Exception {
        Double score = redis.connection().async().zscore(bytes(key), bytes(member)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }
}
