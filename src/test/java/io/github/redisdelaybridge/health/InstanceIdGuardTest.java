package io.github.redisdelaybridge.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.LogCapture;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two real guards on the local Redis stand for two bridge processes: run side by side with one instance id, each reports
 * the other, also when the order of their writes swaps; one killed and started again with its id (its token left behind
 * in Redis) reports nothing. A process takes the id over (to give back the leases of its predecessor) only from a holder
 * that is gone: at once when the id was free, once the holder's renewal is overdue otherwise, never from a live one.
 */
class InstanceIdGuardTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-instance-id");

    private static final long INTERVAL_MS = 100;
    /** The write timeout of the guards that take the id over: a live holder renews within an interval and this. */
    private static final long TIMEOUT_MS = 200;

    @Test
    void twoRunningProcessesWithOneIdEachReportTheOtherUntilOneStops() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        try (LogCapture log = new LogCapture();
             InstanceIdGuard first = guard(instanceId).start()) {
            await(() -> first.token().equals(holder(instanceId)), "the first process's token in Redis");
            try (InstanceIdGuard second = guard(instanceId).start()) {
                await(() -> second.token().equals(first.sharedWith()) && first.token().equals(second.sharedWith()), "each names the other");
                Thread.sleep(10 * INTERVAL_MS);
                assertThat(first.sharedWith()).isEqualTo(second.token());
                assertThat(second.sharedWith()).isEqualTo(first.token());
                assertThat(log.messagesContaining("bridge.instance-id " + instanceId + " is also used by another running bridge"))
                        .as("one error line per process for the whole episode, not one per interval").hasSize(2);
            }
            await(() -> first.sharedWith() == null, "the remaining process's id is its alone again");
            assertThat(log.messagesContaining("bridge.instance-id " + instanceId + ": no other process has written it")).hasSize(1);
        }
    }

    @Test
    void writesThatFollowEachOtherFromOneProcessDoNotEndTheEpisode() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        try (LogCapture log = new LogCapture();
             InstanceIdGuard first = guard(instanceId);
             InstanceIdGuard second = guard(instanceId)) {
            first.renew();
            second.renew(); // each one's first write: not judged
            first.renew();
            second.renew();
            assertThat(first.sharedWith()).isEqualTo(second.token());
            assertThat(second.sharedWith()).isEqualTo(first.token());
            // with equal intervals the order of two writers swaps now and then: one writes twice in a row and finds its own token
            second.renew();
            first.renew();
            first.renew();
            second.renew();
            assertThat(first.sharedWith()).as("its own token after its own write is no sign the other stopped").isEqualTo(second.token());
            assertThat(second.sharedWith()).isEqualTo(first.token());
            assertThat(log.messagesContaining("bridge.instance-id " + instanceId + " is also used by another running bridge")).hasSize(2);
            assertThat(log.messagesContaining("bridge.instance-id " + instanceId + ": no other process has written it")).isEmpty();

            // the other writes no more: the episode lasts until a token's lifetime (3 intervals) has passed since its last token
            // was seen, which was a moment before this; judged well inside and well after that lifetime
            long secondStopped = System.nanoTime();
            while (System.nanoTime() - secondStopped < TimeUnit.MILLISECONDS.toNanos(2 * INTERVAL_MS)) {
                first.renew();
                assertThat(first.sharedWith()).as("not before a token's lifetime without the other's").isEqualTo(second.token());
                Thread.sleep(INTERVAL_MS / 4);
            }
            Thread.sleep(2 * INTERVAL_MS);
            first.renew();
            assertThat(first.sharedWith()).isNull();
        }
    }

    @Test
    void aProcessKilledAndStartedAgainWithItsIdIsNotTakenForASecondOne() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        InstanceIdGuard killed = guard(instanceId).start();
        await(() -> killed.token().equals(holder(instanceId)), "the first process's token in Redis");
        killed.close(); // gone without a word: its token stays in Redis until it expires

        try (InstanceIdGuard restarted = guard(instanceId).start()) {
            await(() -> restarted.token().equals(holder(instanceId)), "the restarted process's token in Redis");
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10 * INTERVAL_MS);
            while (System.nanoTime() < until) {
                assertThat(restarted.sharedWith()).as("its predecessor's token is no second bridge").isNull();
                Thread.sleep(10);
            }
            assertThat(killed.token()).isNotEqualTo(restarted.token());
        }
    }

    @Test
    void anIdNobodyHoldsIsTakenOverAtOnce() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        List<String> takeovers = new CopyOnWriteArrayList<>();
        long before = redisNowMs();
        try (InstanceIdGuard guard = guard(instanceId, takeovers).start()) {
            await(() -> !takeovers.isEmpty(), "the takeover");
            assertThat(takeovers).hasSize(1);
            String[] tookAtAndPrevious = takeovers.get(0).split(" ", 2);
            assertThat(Long.parseLong(tookAtAndPrevious[0])).as("when it took the id, on Redis's clock").isBetween(before, redisNowMs());
            assertThat(tookAtAndPrevious[1]).as("no previous holder").isEqualTo("null");
        }
    }

    @Test
    void aKilledHoldersIdIsTakenOverOnceItsRenewalIsOverdueNotBefore() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        InstanceIdGuard killed = guard(instanceId).start();
        await(() -> killed.token().equals(holder(instanceId)), "the first process's token in Redis");
        killed.close(); // gone without a word: its token stays in Redis until it expires
        long killedAt = System.nanoTime();

        List<String> takeovers = new CopyOnWriteArrayList<>();
        try (InstanceIdGuard restarted = guard(instanceId, takeovers).start()) {
            await(() -> !takeovers.isEmpty(), "the takeover");
            long afterMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertThat(afterMs).as("not before an interval, a write's timeout and a second have passed since its last write")
                    .isGreaterThanOrEqualTo(INTERVAL_MS + TIMEOUT_MS + 1_000 - INTERVAL_MS - 50);
            assertThat(takeovers).hasSize(1);
            assertThat(takeovers.get(0)).endsWith(" " + killed.token());
        }
    }

    @Test
    void theIdOfALiveHolderIsNeverTakenOverNorByEitherOfTwoStartedTogether() throws Exception {
        String instanceId = "bridge-" + System.nanoTime();
        List<String> firstTakeovers = new CopyOnWriteArrayList<>();
        List<String> secondTakeovers = new CopyOnWriteArrayList<>();
        try (InstanceIdGuard first = guard(instanceId, firstTakeovers).start();
             InstanceIdGuard second = guard(instanceId, secondTakeovers).start()) {
            Thread.sleep(3 * (INTERVAL_MS + TIMEOUT_MS + 1_000));
            assertThat(firstTakeovers).as("the first found the id free: it takes back only what was claimed before it took it")
                    .hasSize(1).allSatisfy(takeover -> assertThat(takeover).endsWith(" null"));
            assertThat(secondTakeovers).as("the second found the first's live token").isEmpty();
            assertThat(first.sharedWith()).isEqualTo(second.token());
        }
    }

    private static InstanceIdGuard guard(String instanceId, List<String> takeovers) {
        return new InstanceIdGuard(redis.connection(), key(instanceId), instanceId, INTERVAL_MS, TIMEOUT_MS,
                (tookIdAt, previousHolder) -> takeovers.add(tookIdAt + " " + previousHolder));
    }

    private static long redisNowMs() {
        List<byte[]> time = redis.connection().async().time().toCompletableFuture().join();
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1_000;
    }

    private static InstanceIdGuard guard(String instanceId) {
        return new InstanceIdGuard(redis.connection(), key(instanceId), instanceId, INTERVAL_MS, 2_000);
    }

    private static String key(String instanceId) {
        return new Keys(redis.prefix(), 1).instanceIdHolder(instanceId);
    }

    private static String holder(String instanceId) {
        byte[] value = redis.connection().async().get(key(instanceId).getBytes(StandardCharsets.UTF_8)).toCompletableFuture().join();
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
