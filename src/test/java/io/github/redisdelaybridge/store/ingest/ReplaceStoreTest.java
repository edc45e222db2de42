package io.github.redisdelaybridge.store.ingest;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.Replacement.Outcome;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** replace.lua against the real Redis: the swap, what it keeps and resets, and every id that is not pending. */
class ReplaceStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-replace");

    private static final int SLOTS = 4;
    private static final long MAX_DELAY_MS = 3_600_000;
    private static final long WINDOW_MS = 60_000;
    private static final long LEASE_MS = 60_000;

    private final AtomicLong uninterned = new AtomicLong();
    private StoreFaces store;

    @BeforeEach
    void startClean() {
        store = storeWith(NameLimits.DEFAULT);
    }

    @Test
    void aPendingMessageGetsTheNewPayloadAndDueTimeUnderItsIdMemberAndSlot() throws Exception {
        String id = "order-42-timeout";
        int slot = store.keys().slotOf(id);
        schedule(envelope(id, "kafka:old.target", "old key", "old body", "trace", "old"), new DueTime.AfterDelay(600_000));
        Envelope replacement = envelope(id, "rabbitmq:new.exchange/new.key", "new key", "new body", "trace", "new", "extra", "x");

        long before = redisNowMs();
        Replacement replaced = await(store.ingest().replace(new ScheduleRequest(id, new DueTime.AfterDelay(1_000), replacement)));

        assertThat(replaced.outcome()).isEqualTo(Outcome.REPLACED);
        assertThat(replaced.dueAt()).isBetween(before + 1_000, before + 11_000);
        assertThat(count(store.keys().due(slot))).as("still one pending message in its slot").isEqualTo(1);
        assertThat(count(store.keys().payloads(slot))).isEqualTo(1);
        MessageFacts facts = await(store.inspection().inspect(id));
        assertThat(facts.dueAt()).isEqualTo(replaced.dueAt());
        assertThat(EnvelopeCodec.decode(id, facts.envelope())).isEqualTo(replacement);

        Thread.sleep(1_500);
        ClaimedBatch claimed = await(store.dispatch().claim(slot, 10, LEASE_MS));
        assertThat(claimed.messages()).hasSize(1);
        ClaimedMessage message = claimed.messages().get(0);
        assertThat(message.messageId()).isEqualTo(id);
        assertThat(EnvelopeCodec.decode(id, message.encodedEnvelope())).as("the new payload, byte for byte").isEqualTo(replacement);
    }

    @Test
    void aPackedIdKeepsItsMember() throws Exception {
        String id = "delay.inbound@kL0pYxX2SVi1GZ8ZGz1tQA-0-42";
        int slot = store.keys().slotOf(id);
        schedule(envelope(id, "kafka:a", null, "old"), new DueTime.AfterDelay(600_000));
        byte[] memberBefore = redis.connection().async().zrange(bytes(store.keys().due(slot)), 0, -1).get(10, TimeUnit.SECONDS).get(0);
        assertThat(memberBefore[0] & 0xFF).as("packed").isEqualTo(0xFF);

        Envelope replacement = envelope(id, "kafka:b", null, "new");
        assertThat(await(store.ingest().replace(new ScheduleRequest(id, new DueTime.At(1_000), replacement))).outcome())
                .isEqualTo(Outcome.REPLACED);

        List<byte[]> members = redis.connection().async().zrange(bytes(store.keys().due(slot)), 0, -1).get(10, TimeUnit.SECONDS);
        assertThat(members).hasSize(1);
        assertThat(members.get(0)).isEqualTo(memberBefore);
        ClaimedMessage claimed = await(store.dispatch().claim(slot, 10, LEASE_MS)).messages().get(0);
        assertThat(claimed.messageId()).isEqualTo(id);
        assertThat(EnvelopeCodec.decode(id, claimed.encodedEnvelope())).isEqualTo(replacement);
    }

    @Test
    void aMessageWaitingForARetryStartsAfreshAttemptsAndFailingSinceRemoved() throws Exception {
        String id = "retrying";
        int slot = store.keys().slotOf(id);
        schedule(envelope(id, "kafka:a", null, "old"), new DueTime.At(1_000));
        ClaimedMessage claimed = await(store.dispatch().claim(slot, 10, LEASE_MS)).messages().get(0);
        await(store.dispatch().recordFailure(claimed));
        await(store.dispatch().reschedule(claimed, 600_000, true));
        assertThat(hget(store.keys().attempts(slot), id)).isNotNull();
        assertThat(hget(store.keys().failingSince(slot), id)).isNotNull();

        assertThat(await(store.ingest().replace(new ScheduleRequest(id, new DueTime.At(1_000), envelope(id, "kafka:b", null, "new"))))
                .outcome()).isEqualTo(Outcome.REPLACED);

        assertThat(hget(store.keys().attempts(slot), id)).isNull();
        assertThat(hget(store.keys().failingSince(slot), id)).isNull();
        assertThat(await(store.dispatch().claim(slot, 10, LEASE_MS)).messages().get(0).attempts()).isZero();
    }

    @Test
    void anInFlightMessageIsLeftAloneAndItsLeaseStillSettlesIt() throws Exception {
        String id = "in-flight";
        int slot = store.keys().slotOf(id);
        Envelope old = envelope(id, "kafka:a", null, "old");
        schedule(old, new DueTime.At(1_000));
        ClaimedMessage claimed = await(store.dispatch().claim(slot, 10, LEASE_MS)).messages().get(0);

        Replacement replaced = await(store.ingest().replace(new ScheduleRequest(id, new DueTime.At(1_000), envelope(id, "kafka:b", null, "new"))));

        assertThat(replaced).isEqualTo(new Replacement(Outcome.IN_FLIGHT, -1));
        assertThat(EnvelopeCodec.decode(id, await(store.inspection().inspect(id)).envelope())).as("the old payload stays").isEqualTo(old);
        assertThat(count(store.keys().due(slot))).isZero();
        assertThat(await(store.dispatch().acknowledge(slot, List.of(claimed)))).isEqualTo(1);
    }

    @Test
    void anIdThatIsNotPendingIsNeverStoredAndSaysWhereItStands() throws Exception {
        schedule(envelope("delivered", "kafka:a", null, "x"), new DueTime.At(1_000));
        int deliveredSlot = store.keys().slotOf("delivered");
        await(store.dispatch().acknowledge(deliveredSlot, await(store.dispatch().claim(deliveredSlot, 10, LEASE_MS)).messages()));
        schedule(envelope("cancelled", "kafka:a", null, "x"), new DueTime.AfterDelay(600_000));
        await(store.ingest().cancel("cancelled", false));
        await(store.ingest().storeDeadLetters(Map.of("dead", bytes("a dead-letter record"))));

        Map<String, Replacement> outcomes = new HashMap<>();
        for (String id : List.of("delivered", "cancelled", "dead", "never-stored")) {
            outcomes.put(id, await(store.ingest().replace(new ScheduleRequest(id, new DueTime.At(1_000), envelope(id, "kafka:b", null, "new")))));
        }

        assertThat(outcomes).containsEntry("delivered", new Replacement(Outcome.ALREADY_DELIVERED, -1))
                .containsEntry("cancelled", new Replacement(Outcome.ALREADY_CANCELLED, -1))
                .containsEntry("dead", new Replacement(Outcome.DEAD_LETTER, -1))
                .containsEntry("never-stored", new Replacement(Outcome.NOT_FOUND, -1));
        for (int slot = 0; slot < SLOTS; slot++) {
            assertThat(count(store.keys().due(slot))).as("nothing stored in slot " + slot).isZero();
            assertThat(count(store.keys().payloads(slot))).as("no payload in slot " + slot).isZero();
        }
    }

    @Test
    void aDueTimeBeyondTheMaximumDelayChangesNothing() throws Exception {
        String id = "too-far";
        Envelope old = envelope(id, "kafka:a", null, "old");
        ScheduleResult stored = schedule(old, new DueTime.AfterDelay(600_000));

        Replacement replaced = await(store.ingest().replace(new ScheduleRequest(id, new DueTime.AfterDelay(MAX_DELAY_MS + 60_000),
                envelope(id, "kafka:never.named", null, "new"))));

        assertThat(replaced).isEqualTo(new Replacement(Outcome.DELAY_TOO_LONG, -1));
        MessageFacts facts = await(store.inspection().inspect(id));
        assertThat(facts.dueAt()).isEqualTo(stored.dueAt());
        assertThat(EnvelopeCodec.decode(id, facts.envelope())).isEqualTo(old);
        assertThat(names(id)).as("no name interned by a refused replace").doesNotContainKey("n:kafka:never.named");
    }

    @Test
    void pastTheNamesCapTheReplacementIsStoredInTheWireFormCountedAndDeliveredAsSent() throws Exception {
        store = storeWith(new NameLimits(2, 1_000_000)); // the first message's target and origin stem fill the hash
        String id = "capped";
        int slot = store.keys().slotOf(id);
        schedule(envelope(id, "kafka:a", null, "old"), new DueTime.AfterDelay(600_000));
        Envelope replacement = envelope(id, "kafka:a.target.without.a.code", "k", "new");

        assertThat(await(store.ingest().replace(new ScheduleRequest(id, new DueTime.At(1_000), replacement))).outcome())
                .isEqualTo(Outcome.REPLACED);

        assertThat(uninterned).as("counted as stored un-interned").hasValue(1);
        assertThat(hget(store.keys().payloads(slot), id)).as("the wire form").isEqualTo(EnvelopeCodec.encode(replacement));
        assertThat(names(id)).doesNotContainKey("n:kafka:a.target.without.a.code");
        ClaimedMessage claimed = await(store.dispatch().claim(slot, 10, LEASE_MS)).messages().get(0);
        assertThat(EnvelopeCodec.decode(id, claimed.encodedEnvelope())).isEqualTo(replacement);
    }

    @Test
    void replacingAgainWithTheSamePayloadIsHarmless() throws Exception {
        String id = "twice";
        schedule(envelope(id, "kafka:a", null, "old"), new DueTime.AfterDelay(600_000));
        ScheduleRequest replace = new ScheduleRequest(id, new DueTime.At(5_000), envelope(id, "kafka:b", null, "new"));

        assertThat(await(store.ingest().replace(replace))).isEqualTo(new Replacement(Outcome.REPLACED, 5_000));
        assertThat(await(store.ingest().replace(replace))).as("a redelivered replace").isEqualTo(new Replacement(Outcome.REPLACED, 5_000));

        assertThat(EnvelopeCodec.decode(id, await(store.inspection().inspect(id)).envelope())).isEqualTo(replace.envelope());
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private StoreFaces storeWith(NameLimits names) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), SLOTS),
                new StoreLimits(MAX_DELAY_MS, WINDOW_MS, WINDOW_MS, 1_000, 60_000, Long.MAX_VALUE / 2, names),
                ScriptTimings.NONE, uninterned::addAndGet);
    }

    /** An envelope as the validator builds it: origin and headers as given (name, value pairs). */
    private static Envelope envelope(String id, String target, String key, String body, String... headerPairs) {
        List<MessageHeader> headers = new ArrayList<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.add(new MessageHeader(headerPairs[i], bytes(headerPairs[i + 1])));
        }
        return new Envelope(id, target, "kafka:in/0@" + body.length(), key == null ? null : bytes(key), headers, Map.of(), bytes(body));
    }

    private ScheduleResult schedule(Envelope envelope, DueTime dueTime) throws Exception {
        ScheduleResult result = await(store.ingest().schedule(List.of(new ScheduleRequest(envelope.messageId(), dueTime, envelope)))).get(0);
        assertThat(result.outcome()).isEqualTo(ScheduleResult.Outcome.SCHEDULED);
        return result;
    }

    private static long count(String key) throws Exception {
        String type = redis.connection().async().type(bytes(key)).get(10, TimeUnit.SECONDS);
        return type.equals("zset") ? redis.connection().async().zcard(bytes(key)).get(10, TimeUnit.SECONDS)
                : redis.connection().async().hlen(bytes(key)).get(10, TimeUnit.SECONDS);
    }

    private static byte[] hget(String key, String field) throws Exception {
        return redis.connection().async().hget(bytes(key), bytes(field)).get(10, TimeUnit.SECONDS);
    }

    /** The names hash of the slot of {@code id}. */
    private Map<String, String> names(String id) throws Exception {
        Map<String, String> names = new HashMap<>();
        redis.connection().async().hgetall(bytes(store.keys().names(store.keys().slotOf(id)))).get(10, TimeUnit.SECONDS)
                .forEach((k, v) -> names.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8)));
        return names;
    }

    private static long redisNowMs() throws Exception {
        List<byte[]> time = redis.connection().async().time().get(10, TimeUnit.SECONDS);
        return Long.parseLong(new String(time.get(0), StandardCharsets.US_ASCII)) * 1_000
                + Long.parseLong(new String(time.get(1), StandardCharsets.US_ASCII)) / 1_000;
    }
}
