package io.github.redisdelaybridge.dispatch.parking;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ParkedScore;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** ParkedTargets' changes of state and ParkedTargetsWork's probes, returns and expiry, against the real Redis. */
class ParkedTargetsWorkTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-parking-work");

    private static final String TARGET = "kafka:down";
    private static final int SLOTS = 4;
    private static final long TICK_MS = 100;
    private static final RuntimeException DOWN = new RuntimeException("topic down does not exist");

    private StoreFaces store;
    private ParkingStore parking;

    @BeforeEach
    void startClean() {
        Keys keys = new Keys(redis.prefix(), SLOTS);
        store = StoreFaces.over(redis.connection().async(), keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
        parking = new ParkingStore(new ScriptRunner(redis.connection().async(), ScriptTimings.NONE), keys);
    }

    @Test
    void aTargetIsParkedAfterItsFailuresInARowAndADeliveryBetweenStartsTheCountAgain() throws Exception {
        ParkedTargets parked = new ParkedTargets(parking, new ParkingSettings(3, 1_000, 5_000, 1_000, 60_000));
        parked.failed(TARGET, DOWN);
        parked.failed(TARGET, DOWN);
        parked.delivered(TARGET);
        parked.failed(TARGET, DOWN);
        parked.failed(TARGET, DOWN);
        assertThat(await(parked.refresh()).states()).as("never three in a row").isEmpty();

        parked.failed(TARGET, DOWN);

        awaitCondition(() -> await(parked.refresh()).states().size() == 1);
        TargetState state = parked.stateOf(TARGET);
        assertThat(state.kind()).isEqualTo(TargetState.Kind.PARKED);
        assertThat(state.nextProbeAt() - state.since()).isEqualTo(1_000);
        awaitCondition(() -> everySlotParks(TARGET));
        assertThat(parked.lastFailureOf(TARGET)).contains("topic down does not exist");
    }

    @Test
    void probesGoOneAtATimeWithBackoffAndADeliveryReturnsTheBacklogAtTheReturnRate() throws Exception {
        ParkedTargets parked = new ParkedTargets(parking, new ParkingSettings(1, 200, 400, 500, 60_000));
        ParkedTargetsWork work = new ParkedTargetsWork(parked, target -> 0, "instance-a/1", 5_000, TICK_MS);
        long now = redisNowMs();
        for (int i = 0; i < 1_000; i++) {
            schedule("m-" + i, now - 10_000 + i);
        }
        parked.failed(TARGET, DOWN);
        awaitCondition(() -> everySlotParks(TARGET));
        assertThat(claimAll()).as("every message parked by the claims").isEmpty();

        List<ClaimedMessage> probes = new ArrayList<>();
        long started = System.currentTimeMillis();
        while (System.currentTimeMillis() - started < 1_500) {
            work.run();
            probes.addAll(claimAll());
            Thread.sleep(TICK_MS);
        }
        // probes at +200, +400 (backoff 400 from then on), +800, +1200 ms: about four in 1.5 s, one message each
        assertThat(probes).hasSizeBetween(2, 5);
        assertThat(probes).extracting(ClaimedMessage::messageId).as("the oldest of a slot each time").doesNotHaveDuplicates()
                .allMatch(id -> Integer.parseInt(id.substring(2)) < 50);
        assertThat(probes.get(0).originalDueAt()).as("its due time kept").isLessThan(now - 9_000);

        parked.delivered(TARGET);
        awaitCondition(() -> parked.stateOf(TARGET).kind() == TargetState.Kind.RETURNING);
        long returnStarted = System.currentTimeMillis();
        int returned = probes.size();
        int afterOneSecond = -1;
        while (returned < 1_000) {
            work.run();
            returned += claimAll().size();
            if (afterOneSecond < 0 && System.currentTimeMillis() - returnStarted >= 1_000) {
                afterOneSecond = returned - probes.size();
            }
            Thread.sleep(TICK_MS);
            assertThat(System.currentTimeMillis() - returnStarted).as("returned within 10 s").isLessThan(10_000);
        }
        long tookMs = System.currentTimeMillis() - returnStarted;
        assertThat(afterOneSecond).as("about 500 in the first second, at 500 msg/s").isBetween(250, 800);
        assertThat(tookMs).as("996 messages at 500 msg/s").isGreaterThan(1_400);
        work.run();
        awaitCondition(() -> {
            work.run();
            return await(parked.refresh()).states().isEmpty();
        });
        assertThat(everySlotParks(TARGET)).isFalse();
    }

    @Test
    void aTargetParkedLongerThanTheMaximumAgeHasItsOldMessagesTakenOutToBeDeadLettered() throws Exception {
        ParkedTargets parked = new ParkedTargets(parking, new ParkingSettings(1, 60_000, 60_000, 500, 1_500));
        ParkedTargetsWork work = new ParkedTargetsWork(parked, target -> 0, "instance-a/1", 5_000, TICK_MS);
        long now = redisNowMs();
        schedule("old", now - 10_000);
        schedule("young", now + 1_000);
        parked.failed(TARGET, DOWN);
        awaitCondition(() -> everySlotParks(TARGET));
        assertThat(claimAll()).isEmpty();
        work.run();
        assertThat(claimAll()).as("not before the target has been parked that long").isEmpty();
        Thread.sleep(1_200);
        assertThat(claimAll()).as("young parked as it fell due").isEmpty();

        Thread.sleep(500);
        work.run();

        List<ClaimedMessage> expired = claimAll();
        assertThat(expired).extracting(ClaimedMessage::messageId).containsExactly("old");
        assertThat(parked.tooOld(TARGET, expired.get(0).originalDueAt(), System.currentTimeMillis())).isTrue();
        assertThat(dueScore("young")).as("due less than the maximum age ago: still parked").isEqualTo(ParkedScore.OFFSET + now + 1_000);
    }

    private boolean everySlotParks(String target) {
        for (int slot = 0; slot < SLOTS; slot++) {
            try {
                if (!redis.connection().async().sismember(bytes(store.keys().parkedTargets(slot)), bytes(target)).get(10, TimeUnit.SECONDS)) {
                    return false;
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return true;
    }

    private void schedule(String id, long dueAt) throws Exception {
        Envelope envelope = new Envelope(id, TARGET, "kafka:in/0@1", null, List.of(), Map.of(), bytes("body of " + id));
        await(store.ingest().schedule(List.of(new ScheduleRequest(id, new DueTime.At(dueAt), envelope))));
    }

    private List<ClaimedMessage> claimAll() throws Exception {
        List<ClaimedMessage> claimed = new ArrayList<>();
        for (int slot = 0; slot < SLOTS; slot++) {
            claimed.addAll(await(store.dispatch().claim(slot, 1_000, 60_000)).messages());
        }
        return claimed;
    }

    private Long dueScore(String id) throws Exception {
        Double score = redis.connection().async().zscore(bytes(store.keys().due(store.keys().slotOf(id))), bytes(id)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(new String(time.get(0))) * 1_000 + Long.parseLong(new String(time.get(1))) / 1_000;
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void awaitCondition(Condition condition) throws Exception {
        long deadline = System.currentTimeMillis() + 10_000;
        while (!condition.holds()) {
            assertThat(System.currentTimeMillis()).as("waited 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
