package io.github.redisdelaybridge.dispatch.parking;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.parking.TargetState;
import io.github.redisdelaybridge.store.parking.TargetState.Kind;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.Range;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The parked targets' work and the claims that park, against the real Redis: a returning target's backlog comes back at the
 * rate set, above one script call a tick; claims park a parked target's messages that follow the due ones, so that they do
 * not wake the dispatch loop one by one; and a probe never takes a message before its due time.
 */
class ParkedBacklogPaceTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-parked-pace");

    private static final String DEAD = "kafka:dead";
    private static final String ALIVE = "kafka:alive";
    private static final long HOUR_MS = 3_600_000;

    @Test
    void aReturningBacklogComesBackAtTheRateSetAboveOneCallATick() throws Exception {
        Fixture f = new Fixture(20_000);
        int parked = 3 * ParkingStore.MESSAGES_PER_CALL;
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int i = 0; i < parked; i++) {
            requests.add(request("m-" + i, 1_000L + i, DEAD));
        }
        await(f.faces.ingest().schedule(requests));
        f.setState(new TargetState(DEAD, Kind.PAUSED, 0, 0, 0));
        await(f.store.parkInEverySlot(DEAD, true));
        await(f.faces.dispatch().claim(0, 2 * parked, 60_000));
        assertThat(await(f.store.count(List.of(DEAD))).parked()).isEqualTo(parked);

        f.setState(new TargetState(DEAD, Kind.RETURNING, 0, 0, 0));
        ParkedTargetsWork work = f.work();
        Thread.sleep(300); // 300 ms at 20,000 msg/s: a budget of 6,000, over the 1,500 parked
        work.run();

        assertThat(await(f.store.count(List.of(DEAD))).parked()).as("messages still parked after one round").isZero();
    }

    @Test
    void aClaimParksTheParkedTargetsMessagesThatFollowUpToAnotherTargetsMessage() throws Exception {
        Fixture f = new Fixture(2_000);
        long now = System.currentTimeMillis();
        await(f.faces.ingest().schedule(List.of(request("due", 1_000, DEAD), request("next-1", now + 300, DEAD),
                request("next-2", now + 400, DEAD), request("other", now + 500, ALIVE), request("after-other", now + 600, DEAD))));
        f.setState(new TargetState(DEAD, Kind.PAUSED, 0, 0, 0));
        await(f.store.parkInEverySlot(DEAD, true));

        ClaimedBatch batch = await(f.faces.dispatch().claim(0, 100, 60_000));

        assertThat(batch.messages()).isEmpty();
        assertThat(await(f.store.count(List.of(DEAD))).parked()).as("the due one and the two before the other target's").isEqualTo(3);
        assertThat(batch.nextDue()).as("the next due time is the other target's message").isEqualTo(now + 500);
    }

    @Test
    void aProbeTakesOnlyAMessageThatIsDue() throws Exception {
        Fixture f = new Fixture(2_000);
        long now = System.currentTimeMillis();
        await(f.faces.ingest().schedule(List.of(request("due", 1_000, DEAD), request("later", now + HOUR_MS / 4, DEAD))));
        f.setState(new TargetState(DEAD, Kind.PAUSED, 0, 0, 0));
        await(f.store.parkInEverySlot(DEAD, true));
        await(f.faces.dispatch().claim(0, 100, 60_000));
        // parked as a claim parks a message ahead of its due time (within a second, there)
        f.parkByHand(now + HOUR_MS / 4);
        assertThat(await(f.store.count(List.of(DEAD))).parked()).isEqualTo(2);
        ParkedTargetsWork work = f.work();

        // parked since now (so none of its messages is old enough to expire), a probe due now
        f.setState(new TargetState(DEAD, Kind.PARKED, now, 0, 1_000));
        work.run();
        assertThat(await(f.store.count(List.of(DEAD))).parked()).as("the due message taken out as the probe").isEqualTo(1);
        await(f.faces.dispatch().claim(0, 100, 60_000)); // the probe is leased (its publish is not this test's)

        f.setState(new TargetState(DEAD, Kind.PARKED, now, 0, 1_000)); // the next probe due now
        work.run();
        assertThat(await(f.store.count(List.of(DEAD))).parked()).as("a message due in 15 minutes is not probed with").isEqualTo(1);
    }

    private static ScheduleRequest request(String id, long due, String target) {
        return new ScheduleRequest(id, new DueTime.At(due), new Envelope(id, target, "kafka:in/0@1", null, List.of(), Map.of(),
                bytes("body of " + id)));
    }

    /** One slot under the test's prefix: the store's faces, the parking store, and parking settings returning at {@code returnRate}. */
    private static final class Fixture {

        final Keys keys = new Keys(redis.prefix(), 1);
        final StoreFaces faces = StoreFaces.over(redis.connection().async(), keys,
                new StoreLimits(HOUR_MS, 60_000, 60_000, 1_000, 60_000));
        final ParkingStore store = new ParkingStore(new ScriptRunner(redis.connection().async(), ScriptTimings.NONE), keys);
        final ParkedTargets parked;

        Fixture(int returnRate) {
            parked = new ParkedTargets(store, new ParkingSettings(3, 1_000, 30_000, returnRate, 24 * HOUR_MS));
        }

        ParkedTargetsWork work() {
            return new ParkedTargetsWork(parked, target -> 0, "test-work", 5_000, 100);
        }

        void setState(TargetState state) throws Exception {
            assertThat(await(store.changeState(state.target(), state, EnumSet.allOf(Kind.class), true))).isTrue();
        }

        /** Parks the pending message due at {@code due} as a claim does (lib/parked): its score past PARKED_OFFSET, an index entry. */
        void parkByHand(long due) throws Exception {
            byte[] member = await(redis.connection().async().zrangebyscore(bytes(keys.due(0)),
                    Range.create((double) due, (double) due)).toCompletableFuture()).get(0);
            await(redis.connection().async().zadd(bytes(keys.due(0)), 4_000_000_000_000_000.0 + due, member).toCompletableFuture());
            await(redis.connection().async().zadd(bytes(keys.parkedIndexPrefix(0) + DEAD), (double) due, member).toCompletableFuture());
        }
    }
}
