package io.github.redisdelaybridge.store.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetter;
import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Redis dead-letter store: records survive as written, and the store stays within its bounds. */
class DeadLetterStoreTest {

    private static final String PREFIX = "test-dead-store";

    private RedisConnection connection;
    private RedisClient inspectorClient;
    private StatefulRedisConnection<String, String> inspector;
    private final Keys keys = new Keys(PREFIX, 1);

    @BeforeEach
    void connect() {
        LocalRedis.deleteKeys(PREFIX);
        connection = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(5));
        inspectorClient = RedisClient.create(LocalRedis.URI);
        inspector = inspectorClient.connect();
    }

    @AfterEach
    void disconnect() {
        LocalRedis.deleteKeys(PREFIX);
        inspector.close();
        inspectorClient.shutdown();
        connection.close();
    }

    @Test
    void rejectedMessagesAreKeptAsDecodableRecords() {
        StoreFaces store = store(10, 60_000);
        DeadLetter deadLetter = deadLetter("bad-1");

        store.ingest().storeDeadLetters(Map.of("bad-1", DeadLetterCodec.encode(deadLetter))).join();

        byte[] stored = inspector.sync().hget(keys.deadLetters(0), "bad-1") == null ? null : ((io.lettuce.core.api.async.RedisAsyncCommands<byte[], byte[]>) connection.async()).hget(keys.deadLetters(0).getBytes(), "bad-1".getBytes()).toCompletableFuture().join();
        DeadLetter read = DeadLetterCodec.decode("bad-1", stored);
        assertThat(read.reason()).isEqualTo(DeadLetterReason.INVALID_DELAY);
        assertThat(read.body()).isEqualTo(deadLetter.body());
        assertThat(read.headers()).isEqualTo(deadLetter.headers());
        assertThat(inspector.sync().zscore(keys.deadLetterIndex(0), "bad-1")).isNotNull();
    }

    @Test
    void theStoreKeepsOnlyTheNewestRecordsBeyondItsCount() {
        StoreFaces store = store(5, 60_000);
        // Zero-padded ids: records stored within one millisecond rank by id, so ids must sort like time.
        for (int i = 0; i < 12; i++) {
            String id = String.format("d%02d", i);
            store.ingest().storeDeadLetters(Map.of(id, DeadLetterCodec.encode(deadLetter(id)))).join();
        }

        assertThat(inspector.sync().hlen(keys.deadLetters(0))).isEqualTo(5);
        assertThat(inspector.sync().zrange(keys.deadLetterIndex(0), 0, -1)).containsExactlyInAnyOrder("d07", "d08", "d09", "d10", "d11");
    }

    @Test
    void recordsOlderThanTheMaximumAgeAreDropped() throws InterruptedException {
        StoreFaces store = store(100, 300);
        store.ingest().storeDeadLetters(Map.of("old", DeadLetterCodec.encode(deadLetter("old")))).join();
        Thread.sleep(600);

        store.ingest().storeDeadLetters(Map.of("new", DeadLetterCodec.encode(deadLetter("new")))).join();

        assertThat(inspector.sync().hkeys(keys.deadLetters(0))).containsExactly("new");
    }

    @Test
    void aClaimedMessageMovesToTheStoreOnlyWithItsLease() {
        StoreFaces store = store(10, 60_000);
        Envelope envelope = new Envelope("m-1", "kafka:t", "kafka:in/0@1", null, List.of(), Map.of(), "body".getBytes());
        store.ingest().schedule(List.of(new ScheduleRequest("m-1", new DueTime.AfterDelay(0), envelope))).join();
        ClaimedMessage claimed = store.dispatch().claim(0, 10, 60_000).join().messages().get(0);
        ClaimedMessage stale = new ClaimedMessage(0, "m-1", claimed.member(), true, claimed.dueAt(), 0, claimed.encodedEnvelope(),
                claimed.leaseDeadline() + 1, claimed.originalDueAt());

        assertThat(store.dispatch().deadLetter(stale, DeadLetterCodec.encode(deadLetter("m-1"))).join()).isEqualTo(-1);
        assertThat(store.dispatch().deadLetter(claimed, DeadLetterCodec.encode(deadLetter("m-1"))).join()).isEqualTo(1);

        assertThat(inspector.sync().zcard(keys.inFlight(0))).isZero();
        assertThat(inspector.sync().hexists(keys.payloads(0), "m-1")).isFalse();
        assertThat(inspector.sync().hexists(keys.deadLetters(0), "m-1")).isTrue();
    }

    @Test
    void theStoreKeepsItsRecordsWithinItsBytesOldestDroppedFirst() {
        StoreFaces store = StoreFaces.over(connection.async(), keys, new StoreLimits(86_400_000, 60_000, 60_000, 1_000, 60_000, 50_000));
        for (int i = 0; i < 12; i++) {
            String id = String.format("b%02d", i);
            store.ingest().storeDeadLetters(Map.of(id, DeadLetterCodec.encode(deadLetterOfBytes(id, 10_000)))).join();
        }

        // 12 records of about 10 KB, a budget of 50 KB: the newest four remain, and the count says what they hold
        assertThat(inspector.sync().zrange(keys.deadLetterIndex(0), 0, -1)).containsExactly("b08", "b09", "b10", "b11");
        long held = inspector.sync().hkeys(keys.deadLetters(0)).stream().mapToLong(id -> inspector.sync().hstrlen(keys.deadLetters(0), id)).sum();
        assertThat(Long.parseLong(inspector.sync().get(keys.deadLetterBytes(0)))).isEqualTo(held).isLessThanOrEqualTo(50_000);
    }

    @Test
    void replacingAndDeletingARecordKeepTheByteCountInStep() {
        StoreFaces store = StoreFaces.over(connection.async(), keys, new StoreLimits(86_400_000, 60_000, 60_000, 1_000, 60_000, 1_000_000));
        store.ingest().storeDeadLetters(Map.of("r", DeadLetterCodec.encode(deadLetterOfBytes("r", 5_000)))).join();
        store.ingest().storeDeadLetters(Map.of("r", DeadLetterCodec.encode(deadLetterOfBytes("r", 2_000)))).join();
        long afterReplace = Long.parseLong(inspector.sync().get(keys.deadLetterBytes(0)));

        store.inspection().deleteDeadLetter("r").join();

        assertThat(afterReplace).isBetween(2_000L, 2_500L);
        assertThat(inspector.sync().get(keys.deadLetterBytes(0))).isEqualTo("0");
    }

    private static DeadLetter deadLetterOfBytes(String id, int bodyBytes) {
        return new DeadLetter(id, DeadLetterReason.PAYLOAD_TOO_LARGE, "big", "kafka:in/0@1", "", 0, null, List.of(), Map.of(),
                new byte[bodyBytes]);
    }

    private StoreFaces store(long maxCount, long maxAgeMs) {
        return StoreFaces.over(connection.async(), keys, new StoreLimits(86_400_000, 60_000, 60_000, maxCount, maxAgeMs));
    }

    private static DeadLetter deadLetter(String id) {
        return new DeadLetter(id, DeadLetterReason.INVALID_DELAY, "x-delay must be a number", "kafka:in/0@" + id.length(), "",
                0, null, List.of(MessageHeader.text("x-delay", "soon"), new MessageHeader("bin", new byte[] {0, -1})),
                new LinkedHashMap<>(), ("body of " + id).getBytes());
    }
}
