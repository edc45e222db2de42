package io.github.redisdelaybridge.store.parking;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.ParkedScore;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Parking in Redis (lua/lib/parked): claims park a parked target's messages, returnParked.lua and takeParkedOut.lua bring them
 * back, and every script that finds a pending message by its id finds a parked one; against the real Redis. One slot, so
 * that due order across messages is one set's order.
 */
class ParkedStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-parked");

    private static final String DEAD = "kafka:dead";
    private static final String HEALTHY = "kafka:healthy";
    private static final long DUE = 1_000_000_000_000L;

    private StoreFaces store;
    private ParkingStore parking;

    @BeforeEach
    void startClean() {
        Keys keys = new Keys(redis.prefix(), 1);
        store = StoreFaces.over(redis.connection().async(), keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
        parking = new ParkingStore(new ScriptRunner(redis.connection().async(), ScriptTimings.NONE), keys);
    }

    @Test
    void aClaimParksTheParkedTargetsMessagesAndLeasesTheOthers() throws Exception {
        schedule("dead-1", DEAD, DUE);
        schedule("dead-2", DEAD, DUE + 1);
        schedule("healthy-1", HEALTHY, DUE + 2);
        await(parking.parkInEverySlot(DEAD, true));

        List<ClaimedMessage> claimed = claim();
        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactly("healthy-1");
        assertThat(EnvelopeCodec.decode("healthy-1", claimed.get(0).encodedEnvelope()).body())
                .as("the kept message with its own payload").isEqualTo(bytes("body of healthy-1"));

        assertThat(dueScore("dead-1")).as("parked: its due time past the offset").isEqualTo(ParkedScore.OFFSET + DUE);
        assertThat(claim()).as("no later claim sees a parked message").isEmpty();
        ParkedCounts counts = await(parking.count(List.of(DEAD, HEALTHY)));
        assertThat(counts.parked()).isEqualTo(2);
        assertThat(counts.of(DEAD)).isEqualTo(2);
        assertThat(counts.of(HEALTHY)).isZero();
        assertThat(await(store.inspection().stats()).parked()).isEqualTo(2);
    }

    @Test
    void returnedMessagesAreDueAgainAtTheirOwnDueTimesInDueOrder() throws Exception {
        schedule("dead-late", DEAD, DUE + 500);
        schedule("dead-early", DEAD, DUE);
        await(parking.parkInEverySlot(DEAD, true));
        assertThat(claim()).isEmpty();

        await(parking.parkInEverySlot(DEAD, false));
        ParkedMoved first = await(parking.returnParked(0, DEAD, 1));
        assertThat(first).isEqualTo(new ParkedMoved(1, 1));
        assertThat(dueScore("dead-early")).as("the earliest first, at its own due time").isEqualTo(DUE);
        assertThat(dueScore("dead-late")).isEqualTo(ParkedScore.OFFSET + DUE + 500);
        assertThat(await(parking.returnParked(0, DEAD, 10))).isEqualTo(new ParkedMoved(1, 0));

        assertThat(claim()).extracting(ClaimedMessage::messageId, ClaimedMessage::dueAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("dead-early", DUE), org.assertj.core.groups.Tuple.tuple("dead-late", DUE + 500));
    }

    @Test
    void aMessageTakenOutIsLeasedOnceWhileItsTargetStaysParkedWithItsDueTimeKept() throws Exception {
        schedule("oldest", DEAD, DUE);
        schedule("newer", DEAD, DUE + 1_000);
        await(parking.parkInEverySlot(DEAD, true));
        assertThat(claim()).isEmpty();

        assertThat(await(parking.takeOut(0, DEAD, 1, null))).isEqualTo(new ParkedMoved(1, 1));

        List<ClaimedMessage> probe = claim();
        assertThat(probe).extracting(ClaimedMessage::messageId).containsExactly("oldest");
        assertThat(probe.get(0).originalDueAt()).as("x-delay-due-at and its age count from it").isEqualTo(DUE);
        await(store.dispatch().reschedule(probe.get(0), 0, true));
        assertThat(claim()).as("given back, it is parked again: the exemption held for one claim").isEmpty();
        assertThat(await(parking.count(List.of(DEAD))).of(DEAD)).isEqualTo(2);
    }

    @Test
    void expiryTakesOutOnlyTheMessagesDueBeforeTheCutoff() throws Exception {
        schedule("old-1", DEAD, DUE);
        schedule("old-2", DEAD, DUE + 10);
        schedule("young", DEAD, DUE + 5_000);
        await(parking.parkInEverySlot(DEAD, true));
        assertThat(claim()).isEmpty();

        assertThat(await(parking.takeOut(0, DEAD, 500, DUE + 1_000))).isEqualTo(new ParkedMoved(2, 1));

        assertThat(claim()).extracting(ClaimedMessage::messageId).containsExactlyInAnyOrder("old-1", "old-2");
        assertThat(dueScore("young")).isEqualTo(ParkedScore.OFFSET + DUE + 5_000);
    }

    @Test
    void aParkedMessageIsInspectedRescheduledAndCancelledLikeAPendingOne() throws Exception {
        schedule("parked", DEAD, DUE);
        schedule("cancelled", DEAD, DUE + 1);
        await(parking.parkInEverySlot(DEAD, true));
        assertThat(claim()).isEmpty();

        MessageFacts facts = await(store.inspection().inspect("parked"));
        assertThat(facts.state()).isEqualTo(MessageState.PARKED);
        assertThat(facts.dueAt()).isEqualTo(DUE);

        assertThat(await(store.ingest().cancel("cancelled", false))).isEqualTo(CancelOutcome.WITHDRAWN);
        await(store.ingest().changeDueTime("parked", new DueTime.At(DUE + 2)));
        assertThat(dueScore("parked")).as("a new due time takes it out of parking").isEqualTo(DUE + 2);
        assertThat(claim()).as("its target still parked, the next claim parks it again").isEmpty();
        assertThat(dueScore("parked")).isEqualTo(ParkedScore.OFFSET + DUE + 2);

        await(parking.parkInEverySlot(DEAD, false));
        assertThat(await(parking.returnParked(0, DEAD, 10))).as("the cancelled one's entry is dropped, not brought back")
                .isEqualTo(new ParkedMoved(1, 0));
        assertThat(claim()).extracting(ClaimedMessage::messageId).containsExactly("parked");
        assertThat(await(store.inspection().inspect("cancelled")).state()).isEqualTo(MessageState.CANCELLED);
    }

    @Test
    void aTargetsStateChangesOnlyFromTheKindsGiven() throws Exception {
        TargetState parked = new TargetState(DEAD, TargetState.Kind.PARKED, 1, 2, 3);
        assertThat(await(parking.changeState(DEAD, parked, java.util.EnumSet.of(TargetState.Kind.RETURNING), true))).isTrue();
        assertThat(await(parking.changeState(DEAD, parked, java.util.EnumSet.of(TargetState.Kind.RETURNING), true)))
                .as("parked already: a second instance's park changes nothing").isFalse();
        assertThat(await(parking.states()).states()).containsExactly(parked);
        assertThat(await(parking.changeState(DEAD, null, java.util.EnumSet.of(TargetState.Kind.PARKED), false))).isTrue();
        assertThat(await(parking.states()).states()).isEmpty();
        assertThat(await(parking.takeTurn("a", 60_000))).isTrue();
        assertThat(await(parking.takeTurn("b", 60_000))).as("one instance at a time").isFalse();
        assertThat(await(parking.takeTurn("a", 60_000))).as("the holder keeps it").isTrue();
    }

    private void schedule(String id, String target, long dueAt) throws Exception {
        Envelope envelope = new Envelope(id, target, "kafka:in/0@1", null, List.of(), Map.of(), bytes("body of " + id));
        ScheduleResult result = await(store.ingest().schedule(List.of(new ScheduleRequest(id, new DueTime.At(dueAt), envelope)))).get(0);
        assertThat(result.outcome()).as(id).isEqualTo(ScheduleResult.Outcome.SCHEDULED);
    }

    private List<ClaimedMessage> claim() throws Exception {
        return await(store.dispatch().claim(0, 100, 60_000)).messages();
    }

    private Long dueScore(String id) throws Exception {
        Double score = redis.connection().async().zscore(bytes(store.keys().due(0)), bytes(id)).get(10, TimeUnit.SECONDS);
        return score == null ? null : score.longValue();
    }
}
