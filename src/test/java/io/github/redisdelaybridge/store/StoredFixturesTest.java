package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.StoredFixtureMessages.DEAD;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.DEAD_ID;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUP;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUPED;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUPED_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUPED_ID;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.KAFKA;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.PACKED_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.PACKED_ID;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.PARKED_TARGET;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.RABBITMQ;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.UNINTERNED;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.VERBATIM_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.VERBATIM_ID;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.WIRE_FORM_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.WIRE_FORM_ID;
import static io.github.redisdelaybridge.testkit.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.message.codec.EnvelopeCodec;
import io.github.redisdelaybridge.store.dispatch.ClaimedMessage;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.inspection.DeadLetterEntry;
import io.github.redisdelaybridge.store.inspection.GroupEntry;
import io.github.redisdelaybridge.store.inspection.ListPosition;
import io.github.redisdelaybridge.store.inspection.MessageFacts;
import io.github.redisdelaybridge.store.inspection.MessageState;
import io.github.redisdelaybridge.store.inspection.PendingEntry;
import io.github.redisdelaybridge.store.inspection.PendingFilter;
import io.github.redisdelaybridge.store.parking.ParkingStore;
import io.github.redisdelaybridge.store.script.ScriptRunner;
import io.github.redisdelaybridge.store.script.ScriptTimings;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The stored forms as Redis holds them (src/test/resources/stored-forms, written once by {@link StoredFixtureWriter}),
 * loaded into the real Redis and read with the current code: claimed, decoded, inspected, listed. A release must read
 * what the previous major version wrote (docs/storage-formats.md), so these fixtures are never rewritten to suit a
 * changed reader; a new form adds fixtures next to them. The writer is checked too: storing the same messages again
 * gives the same bytes.
 */
class StoredFixturesTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-fixtures");

    private static final long LEASE_MS = 60_000;

    @Test
    void pendingMessagesInTheStoredFormAreInspectedListedAndClaimedAsTheyWereWritten() throws Exception {
        StoreFaces store = storeWith(StoredFixture.read("pending-stored-form.txt"));

        MessageFacts packed = await(store.inspection().inspect(PACKED_ID));
        assertThat(packed.state()).isEqualTo(MessageState.PENDING);
        assertThat(packed.dueAt()).isEqualTo(PACKED_DUE);
        assertThat(EnvelopeCodec.decode(PACKED_ID, packed.envelope())).isEqualTo(KAFKA);
        assertThat(EnvelopeCodec.decode(VERBATIM_ID, await(store.inspection().inspect(VERBATIM_ID)).envelope())).isEqualTo(RABBITMQ);

        List<PendingEntry> listed = await(store.inspection().listPending(null, null, null, 10)).entries();
        assertThat(listed).extracting(PendingEntry::messageId).containsExactly(PACKED_ID, VERBATIM_ID);
        assertThat(listed).extracting(PendingEntry::target).containsExactly(KAFKA.target(), RABBITMQ.target());
        assertThat(listed).extracting(PendingEntry::dueAt).containsExactly(PACKED_DUE, VERBATIM_DUE);
        assertThat(await(store.inspection().listPending(null, null, RABBITMQ.target(), 10)).entries()).extracting(PendingEntry::messageId)
                .containsExactly(VERBATIM_ID);

        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 10, LEASE_MS)).messages();
        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactly(PACKED_ID, VERBATIM_ID);
        assertThat(claimed.get(0).member()[0]).as("packed").isEqualTo((byte) 0xFF);
        assertThat(claimed.get(1).member()).as("verbatim").isEqualTo(VERBATIM_ID.getBytes(StandardCharsets.UTF_8));
        assertThat(EnvelopeCodec.decode(PACKED_ID, claimed.get(0).encodedEnvelope())).isEqualTo(KAFKA);
        assertThat(EnvelopeCodec.decode(VERBATIM_ID, claimed.get(1).encodedEnvelope())).isEqualTo(RABBITMQ);
        assertThat(await(store.dispatch().acknowledge(0, claimed))).isEqualTo(2);
        assertThat(await(store.inspection().inspect(PACKED_ID)).state()).isEqualTo(MessageState.DELIVERED);
    }

    @Test
    void theCursorFixtureContinuesAListingOfTheStoredFormAfterItsMember() throws Exception {
        StoreFaces store = storeWith(StoredFixture.read("pending-stored-form.txt"));
        List<String> cursor = StoredFixture.readLines("cursor.txt");
        ListPosition after = new ListPosition(Long.parseLong(value(cursor, "score")), StoredFixture.bytesOf(value(cursor, "member")),
                Integer.parseInt(value(cursor, "slot")));

        assertThat(await(store.inspection().listPending(after, null, null, 10)).entries()).extracting(PendingEntry::messageId)
                .containsExactly(VERBATIM_ID);
    }

    @Test
    void aPendingMessageInTheWireFormIsInspectedListedAndClaimedAsItWasWritten() throws Exception {
        StoreFaces store = storeWith(StoredFixture.read("pending-wire-form.txt"));

        assertThat(EnvelopeCodec.decode(WIRE_FORM_ID, await(store.inspection().inspect(WIRE_FORM_ID)).envelope())).isEqualTo(UNINTERNED);
        assertThat(await(store.inspection().listPending(null, null, null, 10)).entries()).extracting(PendingEntry::messageId, PendingEntry::target)
                .containsExactly(tuple(WIRE_FORM_ID, UNINTERNED.target()));
        List<ClaimedMessage> claimed = await(store.dispatch().claim(0, 10, LEASE_MS)).messages();
        assertThat(claimed).extracting(ClaimedMessage::messageId).containsExactly(WIRE_FORM_ID);
        assertThat(claimed.get(0).dueAt()).isEqualTo(WIRE_FORM_DUE);
        assertThat(EnvelopeCodec.decode(WIRE_FORM_ID, claimed.get(0).encodedEnvelope())).isEqualTo(UNINTERNED);
    }

    @Test
    void aDeadLetterRecordIsListedInspectedAndDecodedAsItWasWritten() throws Exception {
        StoreFaces store = storeWith(StoredFixture.read("dead-letter.txt"));

        List<DeadLetterEntry> listed = await(store.inspection().listDeadLetters(null, null, 10)).entries();
        assertThat(listed).extracting(DeadLetterEntry::messageId, DeadLetterEntry::reason, DeadLetterEntry::attempts, DeadLetterEntry::target)
                .containsExactly(tuple(DEAD_ID, DEAD.reason().code(), DEAD.attempts(), DEAD.target()));
        MessageFacts facts = await(store.inspection().inspect(DEAD_ID));
        assertThat(facts.state()).isEqualTo(MessageState.DEAD);
        assertThat(DeadLetterCodec.decode(DEAD_ID, facts.deadRecord())).usingRecursiveComparison().isEqualTo(DEAD);
    }

    @Test
    void aGroupedMessageInTheStoredFormIsFoundByItsGroupListedWithItAndCancelledWithIt() throws Exception {
        StoredFixture fixture = StoredFixture.read("pending-grouped.txt");
        byte[] payload = payloadOf(fixture, GROUPED_ID);
        assertThat(payload[1] & EnvelopeCodec.FLAG_GROUPED).as("the grouped flag in the stored form's flags byte").isNotZero();
        StoreFaces store = storeWith(fixture);

        assertThat(EnvelopeCodec.decode(GROUPED_ID, await(store.inspection().inspect(GROUPED_ID)).envelope())).isEqualTo(GROUPED);
        assertThat(await(store.inspection().listPending(null, PendingFilter.EVERY, 10)).entries())
                .extracting(PendingEntry::messageId, PendingEntry::group, PendingEntry::dueAt).containsExactly(tuple(GROUPED_ID, GROUP, GROUPED_DUE));
        assertThat(await(store.inspection().listPending(null, new PendingFilter(null, null, null, GROUP), 10)).entries())
                .extracting(PendingEntry::messageId).containsExactly(GROUPED_ID);
        assertThat(await(store.inspection().listGroup(GROUP, null, 10)).entries()).extracting(GroupEntry::messageId).containsExactly(GROUPED_ID);

        assertThat(await(store.ingest().cancelGroup(GROUP, false)).changed()).isEqualTo(1);
        assertThat(await(store.inspection().inspect(GROUPED_ID)).state()).isEqualTo(MessageState.CANCELLED);
        assertThat(redis().exists(StoredFixture.keyBytes(store.keys().groupIndex(0, GROUP))).get(5, TimeUnit.SECONDS)).as("index gone").isZero();
    }

    @Test
    void aParkedMessageInTheStoredFormIsInspectedAsParkedAndReturnedAtItsDueTime() throws Exception {
        StoreFaces store = storeWith(StoredFixture.read("pending-parked.txt"));

        MessageFacts parked = await(store.inspection().inspect(PACKED_ID));
        assertThat(parked.state()).isEqualTo(MessageState.PARKED);
        assertThat(parked.dueAt()).isEqualTo(PACKED_DUE);
        assertThat(claim(store)).as("its target parked: no claim takes it").isEmpty();

        ParkingStore parking = new ParkingStore(new ScriptRunner(redis(), ScriptTimings.NONE), store.keys());
        await(parking.parkInEverySlot(PARKED_TARGET, false));
        assertThat(await(parking.returnParked(0, PARKED_TARGET, 10)).moved()).isEqualTo(1);
        List<ClaimedMessage> claimed = claim(store);
        assertThat(claimed).extracting(ClaimedMessage::messageId, ClaimedMessage::dueAt).containsExactly(tuple(PACKED_ID, PACKED_DUE));
        assertThat(EnvelopeCodec.decode(PACKED_ID, claimed.get(0).encodedEnvelope())).isEqualTo(KAFKA);
    }

    @Test
    void theCurrentWriterStillWritesTheFixturesBytes() throws Exception {
        StoredFixture storedForm = StoredFixture.read("pending-stored-form.txt");
        Keys keys = new Keys(redis.prefix(), 1);
        // the names hash as the fixture holds it (tag and codes), so that interning and packing give the same codes
        storedForm.only("names").load(redis(), keys);
        StoreFaces store = store(keys);
        await(store.ingest().schedule(List.of(new ScheduleRequest(PACKED_ID, new DueTime.At(PACKED_DUE), KAFKA),
                new ScheduleRequest(VERBATIM_ID, new DueTime.At(VERBATIM_DUE), RABBITMQ))));

        assertThat(StoredFixture.dump(redis(), keys)).containsExactlyElementsOf(storedForm.lines());
        assertThat(EnvelopeCodec.encode(UNINTERNED)).isEqualTo(payloadOf(StoredFixture.read("pending-wire-form.txt"), WIRE_FORM_ID));
        assertThat(DeadLetterCodec.encode(DEAD)).isEqualTo(payloadOf(StoredFixture.read("dead-letter.txt"), DEAD_ID));
        StoredFixture grouped = StoredFixture.read("pending-grouped.txt");
        Keys groupedKeys = new Keys(redis.prefix() + "-grouped", 1);
        grouped.only("names").load(redis(), groupedKeys);
        await(store(groupedKeys).ingest().schedule(List.of(new ScheduleRequest(GROUPED_ID, new DueTime.At(GROUPED_DUE), GROUPED))));
        assertThat(StoredFixture.dump(redis(), groupedKeys)).containsExactlyElementsOf(grouped.lines());
        // a claim parks a parked target's message in exactly the fixture's form
        StoredFixture parked = StoredFixture.read("pending-parked.txt");
        Keys parkedKeys = new Keys(redis.prefix() + "-parked", 1);
        parked.only("names").load(redis(), parkedKeys);
        StoreFaces parking = store(parkedKeys);
        await(parking.ingest().schedule(List.of(new ScheduleRequest(PACKED_ID, new DueTime.At(PACKED_DUE), KAFKA))));
        await(new ParkingStore(new ScriptRunner(redis(), ScriptTimings.NONE), parkedKeys).parkInEverySlot(PARKED_TARGET, true));
        assertThat(claim(parking)).isEmpty();
        assertThat(StoredFixture.dump(redis(), parkedKeys)).containsExactlyElementsOf(parked.lines());
    }

    private static List<ClaimedMessage> claim(StoreFaces store) throws Exception {
        return await(store.dispatch().claim(0, 10, 60_000)).messages();
    }

    private static byte[] payloadOf(StoredFixture fixture, String id) {
        byte[] field = id.getBytes(StandardCharsets.UTF_8);
        return fixture.hasKey("payloads") ? fixture.field("payloads", field) : fixture.field("deadLetters", field);
    }

    private static String value(List<String> lines, String name) {
        return lines.stream().filter(l -> l.startsWith(name + " ")).findFirst().orElseThrow().substring(name.length() + 1);
    }

    private StoreFaces storeWith(StoredFixture fixture) throws Exception {
        Keys keys = new Keys(redis.prefix(), 1);
        fixture.load(redis(), keys);
        assertThat(redis().exists(StoredFixture.keyBytes(keys.due(0)), StoredFixture.keyBytes(keys.deadLetters(0))).get(5, TimeUnit.SECONDS))
                .as("fixture loaded").isPositive();
        return store(keys);
    }

    private static StoreFaces store(Keys keys) {
        return StoreFaces.over(redis(), keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 365L * 86_400_000, Long.MAX_VALUE / 2));
    }

    private static RedisClusterAsyncCommands<byte[], byte[]> redis() {
        return redis.connection().async();
    }
}
