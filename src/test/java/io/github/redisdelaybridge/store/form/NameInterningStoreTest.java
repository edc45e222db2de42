package io.github.redisdelaybridge.store.form;

import static io.github.redisdelaybridge.testkit.Futures.await;
import static io.github.redisdelaybridge.testkit.Utf8.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.dispatch.ClaimedBatch;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.inspection.ReplayResult;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Targets and origin stems interned per slot by the scripts (lib/internNames, lib/expandNames), against the
 * real Redis: what Redis holds, that the bridge only ever sees the wire form, and what happens when the
 * names hash is lost.
 */
class NameInterningStoreTest {

    private static final long LEASE_MS = 60_000;

    private final List<RedisConnection> connections = new ArrayList<>();
    private String prefix;
    private Keys keys;
    private StoreFaces store;

    @BeforeEach
    void startClean(TestInfo test) {
        prefix = "unit-names-" + test.getTestMethod().orElseThrow().getName();
        LocalRedis.deleteKeys(prefix);
        keys = new Keys(prefix, 1);
        store = newStore();
    }

    @AfterEach
    void deleteKeys() {
        LocalRedis.deleteKeys(prefix);
        connections.forEach(RedisConnection::close);
    }

    @Test
    void twoTargetsOfOneSlotGetDistinctCodesAndComeBackAsTheyWent() throws Exception {
        Envelope toA = envelope("m-a", "kafka:orders.a", "kafka:in/0@17", "body a");
        Envelope toB = envelope("m-b", "kafka:orders.b", "kafka:in/0@18", "body b");

        schedule(toA, toB);

        Map<String, String> names = names();
        assertThat(names.get("n:kafka:orders.a")).isNotNull().isNotEqualTo(names.get("n:kafka:orders.b"));
        assertThat(names.get("c:" + names.get("n:kafka:orders.a"))).isEqualTo("kafka:orders.a");
        assertThat(names.get("c:" + names.get("n:kafka:orders.b"))).isEqualTo("kafka:orders.b");
        assertThat(names.get("n:kafka:in/0@")).as("the origin without its offset").isNotNull();
        assertThat(claimAll()).containsExactlyInAnyOrder(toA, toB);
    }

    @Test
    void aStoredPayloadCarriesCodesNotNamesAndCostsItsBodyPlusAFewBytes() throws Exception {
        byte[] body = new byte[100];
        Envelope envelope = new Envelope("delay.inbound-0-1234567", "kafka:bench-pending-target", "kafka:delay.inbound/0@1234567",
                null, List.of(), Map.of(), body);

        schedule(envelope);

        List<byte[]> members = redis().zrange(bytes(keys.due(0)), 0, -1).get(5, TimeUnit.SECONDS);
        assertThat(members).hasSize(1);
        assertThat(members.get(0)[0]).as("the id is packed too (lib/memberIds)").isEqualTo((byte) 0xFF);
        byte[] stored = redis().hget(bytes(keys.payloads(0)), members.get(0)).get(5, TimeUnit.SECONDS);
        assertThat(stored[1]).as("stored form: 0x80 + flags (origin number)").isEqualTo((byte) (0x80 | EnvelopeCodec.FLAG_ORIGIN_NUMBER));
        assertThat(new String(stored, StandardCharsets.ISO_8859_1)).doesNotContain("kafka:");
        // tag, stored-form bit + flags, two one-byte codes, the offset as a 3-byte varint: 7 bytes, so a 100-byte
        // body stays within jemalloc's 112-byte bin with its 4 bytes of sds header and terminator (with offsets
        // up to 2^28 too)
        assertThat(stored).hasSize(body.length + 7);
        assertThat(claimAll()).containsExactly(envelope);
    }

    @Test
    void anOriginStemIsInternedOnceHoweverManyOffsetsShareIt() throws Exception {
        List<Envelope> envelopes = new ArrayList<>();
        for (int offset = 0; offset < 300; offset++) {
            envelopes.add(envelope("m-" + offset, "kafka:out", "kafka:in/3@" + offset, "b"));
        }

        schedule(envelopes.toArray(Envelope[]::new));

        assertThat(names().keySet()).containsExactlyInAnyOrder("tag", "next", "bytes", "n:kafka:out", "c:1", "n:kafka:in/3@", "c:2");
        assertThat(claimAll()).containsExactlyInAnyOrderElementsOf(envelopes);
    }

    @Test
    void aNameKeepsItsCodeAcrossCallsAndAcrossRestarts() throws Exception {
        schedule(envelope("m-1", "kafka:out", "rabbitmq:orders", "one"));
        Map<String, String> before = names();

        schedule(envelope("m-2", "kafka:out", "rabbitmq:orders", "two"));
        StoreFaces afterRestart = newStore();
        await(afterRestart.ingest().schedule(List.of(new ScheduleRequest("m-3", new DueTime.AfterDelay(0),
                envelope("m-3", "kafka:out", "rabbitmq:orders", "three")))));

        assertThat(names()).isEqualTo(before);
        assertThat(ids(await(afterRestart.dispatch().claim(0, 10, LEASE_MS)))).containsExactlyInAnyOrder("m-1", "m-2", "m-3");
    }

    @Test
    void codesAreNeverReassignedWhenNewNamesArrive() throws Exception {
        schedule(envelope("m-1", "kafka:first", "rabbitmq:q", "one"));
        String firstCode = names().get("n:kafka:first");

        for (int i = 0; i < 20; i++) {
            schedule(envelope("n-" + i, "kafka:t" + i, "rabbitmq:q" + (char) ('a' + i), "b"));
        }

        assertThat(names().get("n:kafka:first")).isEqualTo(firstCode);
        assertThat(names().get("c:" + firstCode)).isEqualTo("kafka:first");
        assertThat(inspectEnvelope("m-1").target()).isEqualTo("kafka:first");
    }

    @Test
    void codesBeyondOneByteRoundTripToo() throws Exception {
        List<Envelope> envelopes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            envelopes.add(envelope("m-" + i, "kafka:target-" + i, i % 2 == 0 ? "rabbitmq:orders" : "kafka:in/" + i + "@" + i, "body " + i));
        }

        schedule(envelopes.toArray(Envelope[]::new));

        assertThat(Integer.parseInt(names().get("next"))).as("codes handed out").isEqualTo(200 + 1 + 100);
        assertThat(await(store.inspection().listPending(null, null, "kafka:target-199", 10)).entries()).extracting(PendingEntry::messageId)
                .containsExactly("m-199");
        assertThat(claimAll()).containsExactlyInAnyOrderElementsOf(envelopes);
    }

    @Test
    void deadLetteringThenReplayingKeepsTargetOriginKeyHeadersPropertiesAndBodyByteExact() throws Exception {
        byte[] body = new byte[256];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) i;
        }
        Envelope original = new Envelope("m-1", "rabbitmq:orders/expired", "rabbitmq:orders.delay", new byte[] {0, -1, 7},
                List.of(MessageHeader.text("trace", "t-1"), new MessageHeader("none", null), MessageHeader.amqp("count", 3),
                        MessageHeader.text("trace", "t-2")),
                Map.of("content-type", "application/octet-stream", "priority", "4"), body);
        schedule(original);
        ClaimedMessage claimed = await(store.dispatch().claim(0, 10, LEASE_MS)).messages().get(0);
        Envelope delivered = EnvelopeCodec.decode(claimed.messageId(), claimed.encodedEnvelope());
        DeadLetter deadLetter = new DeadLetter(delivered.messageId(), DeadLetterReason.PUBLISH_FAILED, "refused", delivered.origin(),
                delivered.target(), 10, delivered.key(), delivered.headers(), delivered.properties(), delivered.body());

        assertThat(await(store.dispatch().deadLetter(claimed, DeadLetterCodec.encode(deadLetter)))).isEqualTo(1);
        byte[] record = await(store.inspection().inspect("m-1")).deadRecord();
        DeadLetter read = DeadLetterCodec.decode("m-1", record);
        Envelope replayed = new Envelope("m-1", read.target(), read.origin(), read.key(), read.headers(), read.properties(), read.body());
        ReplayResult result = await(store.inspection().replayDeadLetter(record, new ScheduleRequest("m-1", new DueTime.AfterDelay(0), replayed)));

        assertThat(result.outcome()).isEqualTo(ReplayResult.Outcome.REPLAYED);
        assertThat(claimAll()).containsExactly(original);
    }

    @Test
    void aPayloadWhoseNamesHashWasDeletedIsReturnedAsStoredAndRefusedWithAClearMessage() throws Exception {
        schedule(envelope("m-1", "kafka:out", "kafka:in/0@1", "lost"));
        redis().del(bytes(keys.names(0))).get(5, TimeUnit.SECONDS);
        // a wire-form payload (as stored past the names cap) needs no names hash
        Envelope wireForm = envelope("wire-1", "kafka:uninterned", "kafka:in/0@2", "still fine");
        redis().hset(bytes(keys.payloads(0)), bytes("wire-1"), EnvelopeCodec.encode(wireForm)).get(5, TimeUnit.SECONDS);
        redis().zadd(bytes(keys.due(0)), 1_000, bytes("wire-1")).get(5, TimeUnit.SECONDS);

        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 10, LEASE_MS)).messages();

        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactlyInAnyOrder("m-1", "wire-1");
        ClaimedMessage lost = claimed.stream().filter(m -> m.messageId().equals("m-1")).findFirst().orElseThrow();
        assertThat(lost.encodedEnvelope()[1] & 0x80).as("stored form").isNotZero();
        assertThatThrownBy(() -> EnvelopeCodec.decode("m-1", lost.encodedEnvelope())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stored form").hasMessageContaining("names hash");
        ClaimedMessage fine = claimed.stream().filter(m -> m.messageId().equals("wire-1")).findFirst().orElseThrow();
        assertThat(EnvelopeCodec.decode("wire-1", fine.encodedEnvelope())).isEqualTo(wireForm);
    }

    @Test
    void aPayloadInternedIntoALostNamesHashIsNotExpandedWithTheCodesOfItsSuccessor() throws Exception {
        schedule(envelope("m-1", "kafka:original", "kafka:in/0@1", "first"));
        int oldTag = Integer.parseInt(names().get("tag"));
        redis().del(bytes(keys.names(0))).get(5, TimeUnit.SECONDS);
        // the successor hash draws a new tag; set it so that this test does not depend on the draw (1 in 256 repeats)
        redis().hset(bytes(keys.names(0)), bytes("tag"), bytes(Integer.toString((oldTag + 1) % 256))).get(5, TimeUnit.SECONDS);
        schedule(envelope("m-2", "kafka:successor", "kafka:in/0@2", "second"));
        assertThat(names().get("n:kafka:successor")).as("the same code the lost hash gave kafka:original").isEqualTo("1");

        byte[] first = await(store.inspection().inspect("m-1")).envelope();

        assertThat(first[1] & 0x80).as("left in the stored form, not read as kafka:successor").isNotZero();
        assertThat(inspectEnvelope("m-2").target()).isEqualTo("kafka:successor");
    }

    @Test
    void damagedPayloadsNeverFailAClaimAListingOrAnInspection() throws Exception {
        schedule(envelope("good", "kafka:out", "kafka:in/0@1", "fine"));
        int tag = Integer.parseInt(names().get("tag"));
        Random random = new Random(42);
        List<byte[]> damaged = new ArrayList<>(List.of(new byte[0], new byte[] {1}, new byte[] {(byte) tag, (byte) 0x90},
                new byte[] {(byte) tag, (byte) 0x90, (byte) 0xFF}, new byte[] {(byte) tag, (byte) 0x90, 1, 99, 5},
                new byte[] {(byte) 0xDB, 1, 0, 0, 0, 9}, new byte[] {(byte) 0xDB, 3, 0, 120, 'x'}));
        for (int i = 0; i < 40; i++) {
            byte[] bytes = new byte[random.nextInt(12)];
            random.nextBytes(bytes);
            damaged.add(bytes);
        }
        for (int i = 0; i < damaged.size(); i++) {
            redis().hset(bytes(keys.payloads(0)), bytes("bad-" + i), damaged.get(i)).get(5, TimeUnit.SECONDS);
            redis().zadd(bytes(keys.due(0)), 1_000, bytes("bad-" + i)).get(5, TimeUnit.SECONDS);
        }

        assertThat(await(store.inspection().listPending(null, null, null, 1_000)).entries()).hasSize(damaged.size() + 1);
        assertThat(await(store.inspection().inspect("bad-3")).envelope()).isEqualTo(damaged.get(3));
        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 1_000, LEASE_MS)).messages();

        assertThat(claimed).hasSize(damaged.size() + 1);
        for (ClaimedMessage message : claimed) {
            if (message.messageId().equals("good")) {
                assertThat(EnvelopeCodec.decode("good", message.encodedEnvelope()).body()).isEqualTo(bytes("fine"));
            } else {
                assertThat(message.encodedEnvelope()).as(message.messageId())
                        .isEqualTo(damaged.get(Integer.parseInt(message.messageId().substring(4))));
            }
        }
    }

    // --- helpers ----------------------------------------------------------------------------------------------

    private StoreFaces newStore() {
        RedisConnection connection = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(10));
        connections.add(connection);
        return StoreFaces.over(connection.async(), keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 60_000));
    }

    private RedisClusterAsyncCommands<byte[], byte[]> redis() {
        return connections.get(0).async();
    }

    private void schedule(Envelope... envelopes) throws Exception {
        List<ScheduleRequest> requests = new ArrayList<>();
        for (Envelope envelope : envelopes) {
            requests.add(new ScheduleRequest(envelope.messageId(), new DueTime.AfterDelay(0), envelope));
        }
        assertThat(await(store.ingest().schedule(requests))).allMatch(r -> r.outcome() == ScheduleResult.Outcome.SCHEDULED);
    }

    private List<Envelope> claimAll() throws Exception {
        List<Envelope> envelopes = new ArrayList<>();
        for (ClaimedMessage message : await(store.dispatch().claim(0, 1_000, LEASE_MS)).messages()) {
            envelopes.add(EnvelopeCodec.decode(message.messageId(), message.encodedEnvelope()));
        }
        return envelopes;
    }

    private Envelope inspectEnvelope(String id) throws Exception {
        return EnvelopeCodec.decode(id, await(store.inspection().inspect(id)).envelope());
    }

    private Map<String, String> names() throws Exception {
        Map<String, String> names = new LinkedHashMap<>();
        redis().hgetall(bytes(keys.names(0))).get(5, TimeUnit.SECONDS)
                .forEach((field, value) -> names.put(new String(field, StandardCharsets.UTF_8), new String(value, StandardCharsets.UTF_8)));
        return names;
    }

    private static List<String> ids(ClaimedBatch batch) {
        return batch.messages().stream().map(ClaimedMessage::messageId).toList();
    }

    private static Envelope envelope(String id, String target, String origin, String body) {
        return new Envelope(id, target, origin, null, List.of(), Map.of(), bytes(body));
    }
}
