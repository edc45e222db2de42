package io.github.redisdelaybridge.dispatch;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.RedisClusterProcesses;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A claim round in which one slot's claim fails: the other slots' messages are handed out at once, the failed slot's
 * messages are neither lost nor left to wait out a lease, and no attempt is counted. Against real Redis servers: the local
 * one (a wrong-type key makes one slot's script fail), and a Redis Cluster of the test's own with one master frozen
 * (SIGSTOP), whose claim then goes unanswered although it runs when the master resumes.
 */
class DueMessageClaimerTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-claimer");

    private static final long LEASE_MS = 60_000;
    private static final int PER_SLOT = 3;

    @Test
    void aSlotWhoseClaimFailsDoesNotHoldUpTheOthersAndLosesNothing() throws Exception {
        StoreFaces store = store(redis.connection().async(), redis.prefix(), 4);
        Map<String, Integer> slotOf = scheduleDueMessagesInEverySlot(store);
        int broken = 2;
        // claim.lua fails on this slot: its in-flight set is not a sorted set
        redis.connection().async().set(bytes(store.keys().inFlight(broken)), bytes("not a sorted set")).get(10, TimeUnit.SECONDS);
        DueMessageClaimer claimer = new DueMessageClaimer(store.dispatch(), settings(2_000), new ReleaseClock());

        ClaimRound first = claimer.claim(1_000);

        assertThat(first).as("the round, although one slot failed").isNotNull();
        assertThat(ids(first.messages())).containsExactlyInAnyOrderElementsOf(idsOutside(slotOf, broken));
        assertThat(first.messages()).allSatisfy(m -> assertThat(m.attempts()).isZero());
        assertThat(redis.connection().async().zcard(bytes(store.keys().due(broken))).get(10, TimeUnit.SECONDS)).as("the failed slot's messages, still due")
                .isEqualTo(PER_SLOT);

        redis.connection().async().del(bytes(store.keys().inFlight(broken))).get(10, TimeUnit.SECONDS);
        List<ClaimedMessage> later = claimUntil(claimer, PER_SLOT, Duration.ofSeconds(10));

        assertThat(ids(later)).containsExactlyInAnyOrderElementsOf(idsIn(slotOf, broken));
        assertThat(later).allSatisfy(m -> assertThat(m.attempts()).as("no attempt counted").isZero());
    }

    @Test
    void aSlotWhoseClaimGoesUnansweredIsGivenBackAtOnceNotAfterItsLease() throws Exception {
        try (RedisClusterProcesses cluster = new RedisClusterProcesses(3);
             RedisConnection connection = new RedisConnection(RedisConnection.uris(cluster.uris()), true, Duration.ofMillis(1_000))) {
            StoreFaces store = store(connection.async(), "claimer-cluster", 6);
            Map<Integer, Integer> portOfSlot = new HashMap<>();
            for (int slot = 0; slot < 6; slot++) {
                portOfSlot.put(slot, cluster.portOwning(store.keys().due(slot)));
            }
            int frozenPort = portOfSlot.get(0);
            Set<Integer> frozenSlots = portOfSlot.entrySet().stream().filter(e -> e.getValue() == frozenPort).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            assertThat(frozenSlots).as("slots on the master that will be frozen, of %s", portOfSlot).hasSizeLessThan(6);
            DueMessageClaimer claimer = new DueMessageClaimer(store.dispatch(), settings(1_500), new ReleaseClock());
            assertThat(claimer.claim(1_000).messages()).as("a first round, nothing due: loads the script on every master").isEmpty();
            Map<String, Integer> slotOf = scheduleDueMessagesInEverySlot(store);
            List<String> frozenIds = slotOf.entrySet().stream().filter(e -> frozenSlots.contains(e.getValue())).map(Map.Entry::getKey).toList();

            cluster.freeze(frozenPort);
            ClaimRound first;
            try {
                first = claimer.claim(1_000);
            } finally {
                cluster.thaw(frozenPort);
            }

            assertThat(first).as("the round, although one master did not answer").isNotNull();
            assertThat(ids(first.messages())).containsExactlyInAnyOrderElementsOf(
                    slotOf.keySet().stream().filter(id -> !frozenIds.contains(id)).toList());
            long leased = awaitInFlight(connection.async(), store.keys(), frozenSlots, frozenIds.size(), Duration.ofSeconds(10));
            assertThat(leased).as("the unanswered claim ran once the master resumed, leasing its slots' messages for %d ms", LEASE_MS)
                    .isEqualTo(frozenIds.size());

            long thawedAt = System.currentTimeMillis();
            List<ClaimedMessage> later = claimUntil(claimer, frozenIds.size(), Duration.ofSeconds(20));

            assertThat(ids(later)).containsExactlyInAnyOrderElementsOf(frozenIds);
            assertThat(later).allSatisfy(m -> assertThat(m.attempts()).as("no attempt counted").isZero());
            assertThat(System.currentTimeMillis() - thawedAt).as("given back, not left to wait out the lease").isLessThan(LEASE_MS / 2);
        }
    }

    private static StoreFaces store(RedisClusterAsyncCommands<byte[], byte[]> commands, String prefix, int slots) {
        return StoreFaces.over(commands, new Keys(prefix, slots), new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
    }

    private static DispatchSettings settings(long redisTimeoutMs) {
        return new DispatchSettings(1_000, 5_000, 100, LEASE_MS, 20_000, redisTimeoutMs, 2_500, 0);
    }

    /** {@value #PER_SLOT} messages in every slot, all due already; returns each id's slot. */
    private static Map<String, Integer> scheduleDueMessagesInEverySlot(StoreFaces store) throws Exception {
        Map<String, Integer> slotOf = new HashMap<>();
        int[] perSlot = new int[store.keys().slotCount()];
        List<ScheduleRequest> requests = new ArrayList<>();
        for (int n = 0; requests.size() < PER_SLOT * perSlot.length; n++) {
            String id = "claim-" + n;
            int slot = store.keys().slotOf(id);
            if (perSlot[slot] < PER_SLOT) {
                perSlot[slot]++;
                slotOf.put(id, slot);
                requests.add(new ScheduleRequest(id, new DueTime.At(1_000),
                        new Envelope(id, "kafka:out", "kafka:in/0@" + n, null, List.of(), Map.of(), bytes("body " + n))));
            }
        }
        await(store.ingest().schedule(requests));
        return slotOf;
    }

    /** Claims round after round until {@code count} messages came, or the timeout passed. */
    private static List<ClaimedMessage> claimUntil(DueMessageClaimer claimer, int count, Duration timeout) throws InterruptedException {
        List<ClaimedMessage> claimed = new ArrayList<>();
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        while (claimed.size() < count && System.currentTimeMillis() < deadline) {
            ClaimRound round = claimer.claim(1_000);
            if (round != null) {
                claimed.addAll(round.messages());
            }
            Thread.sleep(50);
        }
        return claimed;
    }

    private static long awaitInFlight(RedisClusterAsyncCommands<byte[], byte[]> commands, Keys keys, Set<Integer> slots, long expected,
                                      Duration timeout) throws Exception {
        long deadline = System.currentTimeMillis() + timeout.toMillis();
        long inFlight;
        do {
            inFlight = 0;
            for (int slot : slots) {
                inFlight += commands.zcard(bytes(keys.inFlight(slot))).get(5, TimeUnit.SECONDS);
            }
            if (inFlight >= expected) {
                return inFlight;
            }
            Thread.sleep(50);
        } while (System.currentTimeMillis() < deadline);
        return inFlight;
    }

    private static List<String> ids(List<ClaimedMessage> messages) {
        return messages.stream().map(ClaimedMessage::messageId).toList();
    }

    private static List<String> idsIn(Map<String, Integer> slotOf, int slot) {
        return slotOf.entrySet().stream().filter(e -> e.getValue() == slot).map(Map.Entry::getKey).toList();
    }

    private static List<String> idsOutside(Map<String, Integer> slotOf, int slot) {
        return slotOf.entrySet().stream().filter(e -> e.getValue() != slot).map(Map.Entry::getKey).toList();
    }
}
