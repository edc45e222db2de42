package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.NameLimits;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.CancelOutcome;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.inspection.Listing;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A slot's names hash at its cap ({@link NameLimits}), against the real Redis: a message whose target or origin stem has no
 * code is stored in the wire form and counted, never refused, and every path that reads a payload (claim, acknowledge,
 * listing, inspection, the duplicate check) treats it as any other; the hash stops growing.
 */
class NamesCapStoreTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-names-cap");

    private static final long LEASE_MS = 60_000;
    /** One target and one origin stem get codes; the next name finds the hash full. */
    private static final NameLimits TWO_NAMES = new NameLimits(2, 1_000_000);

    private final AtomicLong uninterned = new AtomicLong();

    @Test
    void pastTheCapPayloadsAreStoredInTheWireFormCountedAndDeliveredAsTheyWent() throws Exception {
        StoreFaces store = store(TWO_NAMES);
        List<Envelope> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(envelope("m-" + i, "kafka:orders." + i, "kafka:in/0@" + i, "body " + i));
        }

        schedule(store, sent);

        Map<String, String> names = names();
        assertThat(names).containsEntry("next", "2").containsKeys("n:kafka:orders.0", "n:kafka:in/0@").doesNotContainKey("n:kafka:orders.1");
        assertThat(uninterned).as("payloads stored un-interned, counted").hasValue(4);
        assertThat(storedPayload("m-0")[1] & 0xFF).as("the first, interned: the stored form's mark").isGreaterThanOrEqualTo(0x80);
        assertThat(storedPayload("m-3")).as("a later one, in the wire form").isEqualTo(EnvelopeCodec.encode(sent.get(3)));

        Listing<PendingEntry> listed = await(store.inspection().listPending(null, null, "kafka:orders.3", 10));
        assertThat(listed.entries()).extracting(PendingEntry::messageId).containsExactly("m-3");
        assertThat(EnvelopeCodec.decode("m-4", await(store.inspection().inspect("m-4")).envelope())).isEqualTo(sent.get(4));

        ClaimedBatch claimed = await(store.dispatch().claim(0, 100, LEASE_MS));
        List<Envelope> delivered = new ArrayList<>();
        for (ClaimedMessage message : claimed.messages()) {
            delivered.add(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope()));
        }
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(await(store.dispatch().acknowledge(0, claimed.messages()))).isEqualTo(5);
        assertThat(redis.connection().async().hlen(bytes(store.keys().payloads(0))).get(5, TimeUnit.SECONDS))
                .as("payloads left after delivery").isZero();
    }

    @Test
    void theNamesHashStaysWithinItsByteCapHoweverManyNamesArrive() throws Exception {
        StoreFaces store = store(new NameLimits(10_000, 2_000));
        List<Envelope> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add(envelope("m-" + i, "kafka:orders." + "x".repeat(90) + i, "kafka:in/0@" + i, "b"));
        }

        schedule(store, sent);

        long nameBytes = names().entrySet().stream().filter(e -> e.getKey().startsWith("c:")).mapToLong(e -> e.getValue().length()).sum();
        assertThat(nameBytes).isLessThanOrEqualTo(2_000).isEqualTo(Long.parseLong(names().get("bytes")));
        assertThat(uninterned.get()).isGreaterThan(150);
        List<Envelope> delivered = new ArrayList<>();
        for (ClaimedMessage message : await(store.dispatch().claim(0, 500, LEASE_MS)).messages()) {
            delivered.add(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope()));
        }
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void aCopyOfAnUninternedMessageIsADuplicateAndAnotherPayloadUnderItsIdIsToldApart() throws Exception {
        StoreFaces store = store(TWO_NAMES);
        Envelope interned = envelope("m-a", "kafka:orders.a", "kafka:in/0@1", "a");
        Envelope uninternedOne = envelope("m-b", "kafka:orders.b", "kafka:in/0@2", "b");
        schedule(store, List.of(interned, uninternedOne));

        List<ScheduleResult> again = await(store.ingest().schedule(List.of(
                request(envelope("m-b", "kafka:orders.b", "kafka:in/0@9", "b")),
                request(envelope("m-b", "kafka:orders.b", "kafka:in/0@10", "other")),
                request(envelope("m-a", "kafka:orders.a", "kafka:other/3@4", "a")),
                request(envelope("m-a", "kafka:orders.a", "kafka:other/3@5", "changed")))));

        assertThat(again).extracting(ScheduleResult::outcome).containsExactly(ScheduleResult.Outcome.DUPLICATE_PENDING,
                ScheduleResult.Outcome.DUPLICATE_ID, ScheduleResult.Outcome.DUPLICATE_PENDING, ScheduleResult.Outcome.DUPLICATE_ID);
    }

    @Test
    void idStemsPastTheCapStayVerbatimAndTheirMessagesAreDelivered() throws Exception {
        StoreFaces store = store(TWO_NAMES);
        schedule(store, List.of(envelope("first", "kafka:t", "kafka:in/0@0", "0"))); // its target and origin stem fill the hash
        List<Envelope> sent = List.of(envelope("orders.a-0-1", "kafka:t", "kafka:in/0@1", "1"),
                envelope("orders.b-0-2", "kafka:t", "kafka:in/0@2", "2"));

        schedule(store, sent);

        assertThat(names()).containsEntry("next", "2").doesNotContainKeys("n:orders.a", "n:orders.b");
        assertThat(redis.connection().async().hexists(bytes(store.keys().payloads(0)), bytes("orders.a-0-1")).get(5, TimeUnit.SECONDS))
                .as("held under the id verbatim").isTrue();
        assertThat(await(store.ingest().cancel("orders.c-0-3", true))).isEqualTo(CancelOutcome.RECORDED);
        assertThat(names()).containsEntry("next", "2");
        List<String> claimed = await(store.dispatch().claim(0, 10, LEASE_MS)).messages().stream().map(ClaimedMessage::messageId).toList();
        assertThat(claimed).containsExactlyInAnyOrder("first", "orders.a-0-1", "orders.b-0-2");
        assertThat(await(store.ingest().schedule(List.of(request(envelope("orders.c-0-3", "kafka:t", "kafka:in/0@3", "3"))))))
                .extracting(ScheduleResult::outcome).containsExactly(ScheduleResult.Outcome.CANCELLED);
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private StoreFaces store(NameLimits names) {
        return StoreFaces.over(redis.connection().async(), new Keys(redis.prefix(), 1),
                new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000, 1_000_000, names), ScriptTimings.NONE, uninterned::addAndGet);
    }

    private static void schedule(StoreFaces store, List<Envelope> envelopes) throws Exception {
        List<ScheduleRequest> requests = envelopes.stream().map(NamesCapStoreTest::request).toList();
        assertThat(await(store.ingest().schedule(requests))).allMatch(r -> r.outcome() == ScheduleResult.Outcome.SCHEDULED);
    }

    private static ScheduleRequest request(Envelope envelope) {
        return new ScheduleRequest(envelope.messageId(), new DueTime.AfterDelay(0), envelope);
    }

    private byte[] storedPayload(String id) throws Exception {
        return redis.connection().async().hget(bytes(new Keys(redis.prefix(), 1).payloads(0)), bytes(id)).get(5, TimeUnit.SECONDS);
    }

    private Map<String, String> names() throws Exception {
        Map<String, String> names = new java.util.LinkedHashMap<>();
        redis.connection().async().hgetall(bytes(new Keys(redis.prefix(), 1).names(0))).get(5, TimeUnit.SECONDS)
                .forEach((field, value) -> names.put(new String(field, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8)));
        return names;
    }

    private static Envelope envelope(String id, String target, String origin, String body) {
        return new Envelope(id, target, origin, null, List.of(), Map.of(), bytes(body));
    }
}
