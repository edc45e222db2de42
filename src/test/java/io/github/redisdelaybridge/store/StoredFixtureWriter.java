package io.github.redisdelaybridge.store;

import static io.github.redisdelaybridge.store.StoredFixtureMessages.DEAD;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.DEAD_ID;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUPED;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.GROUPED_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.KAFKA;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.PACKED_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.RABBITMQ;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.UNINTERNED;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.VERBATIM_DUE;
import static io.github.redisdelaybridge.store.StoredFixtureMessages.WIRE_FORM_DUE;

import io.github.redisdelaybridge.message.DueTime;
import io.github.redisdelaybridge.message.Envelope;
import io.github.redisdelaybridge.message.codec.DeadLetterCodec;
import io.github.redisdelaybridge.store.connection.RedisConnection;
import io.github.redisdelaybridge.store.ingest.IngestStore;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.github.redisdelaybridge.testkit.LocalRedis;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Writes the fixtures of src/test/resources/stored-forms with the current code, against the local Redis: it stores
 * {@link StoredFixtureMessages} through the store's scripts and dumps what Redis then holds. Run it when a stored form
 * is added: it writes only the fixtures that are not there yet (the fixtures of the forms a release must keep reading
 * are committed and never rewritten):
 * {@code mvn -B -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=io.github.redisdelaybridge.store.StoredFixtureWriter}
 * or from an IDE; the first argument is the directory (default src/test/resources/stored-forms).
 */
public final class StoredFixtureWriter {

    private static final String PREFIX = "fixture-writer";

    private StoredFixtureWriter() {
    }

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args.length > 0 ? args[0] : "src/test/resources/stored-forms");
        Files.createDirectories(directory);
        try (RedisConnection connection = new RedisConnection(LocalRedis.URI, Duration.ofSeconds(10))) {
            RedisClusterAsyncCommands<byte[], byte[]> redis = connection.async();

            Keys stored = keys("stored");
            schedule(store(redis, stored, NameLimits.DEFAULT), KAFKA, PACKED_DUE, RABBITMQ, VERBATIM_DUE);
            List<String> storedForm = StoredFixture.dump(redis, stored);
            write(directory.resolve("pending-stored-form.txt"), storedForm, """
                    # Two pending messages in the stored form, with the slot's names hash: a default Kafka id held as a packed
                    # member, and an id held verbatim (StoredFixtureMessages.KAFKA and .RABBITMQ).""");

            Keys wire = keys("wire");
            schedule(store(redis, wire, new NameLimits(0, 0)), UNINTERNED, WIRE_FORM_DUE, null, 0);
            write(directory.resolve("pending-wire-form.txt"), StoredFixture.dump(redis, wire), """
                    # A pending message stored in the wire form because the names hash had no room (StoredFixtureMessages.UNINTERNED).""");

            Keys dead = keys("dead");
            store(redis, dead, NameLimits.DEFAULT).storeDeadLetters(Map.of(DEAD_ID, DeadLetterCodec.encode(DEAD))).get();
            write(directory.resolve("dead-letter.txt"), StoredFixture.dump(redis, dead), """
                    # A dead-letter record, version 1 holding a version 3 envelope (StoredFixtureMessages.DEAD).""");

            byte[] packedMember = StoredFixture.bytesOf(storedForm.stream().filter(l -> l.startsWith("due zset ")).findFirst()
                    .orElseThrow().split(" ")[2]);
            write(directory.resolve("cursor.txt"), cursor(PACKED_DUE, 0, packedMember), """
                    # A listing cursor (nextCursor): base64url of <score>/<slot>: and the member's bytes, here the packed member
                    # of pending-stored-form.txt; then the position it names.""");

            Keys grouped = keys("grouped");
            schedule(store(redis, grouped, NameLimits.DEFAULT), GROUPED, GROUPED_DUE, null, 0);
            write(directory.resolve("pending-grouped.txt"), StoredFixture.dump(redis, grouped), """
                    # A pending message in the stored form with an x-group header (flag 0x40), and its entry in the slot's index
                    # of its group (StoredFixtureMessages.GROUPED).""");

            for (String family : List.of("stored", "wire", "dead", "grouped")) {
                LocalRedis.deleteKeys(PREFIX + "-" + family);
            }
        }
    }

    private static Keys keys(String family) {
        LocalRedis.deleteKeys(PREFIX + "-" + family);
        return new Keys(PREFIX + "-" + family, 1);
    }

    private static IngestStore store(RedisClusterAsyncCommands<byte[], byte[]> redis, Keys keys, NameLimits names) {
        return StoreFaces.over(redis, keys, new StoreLimits(3_600_000, 60_000, 60_000, 1_000, 86_400_000, Long.MAX_VALUE / 2, names)).ingest();
    }

    private static void schedule(IngestStore store, Envelope first, long firstDue, Envelope second, long secondDue) throws Exception {
        List<ScheduleRequest> requests = new ArrayList<>();
        requests.add(new ScheduleRequest(first.messageId(), new DueTime.At(firstDue), first));
        if (second != null) {
            requests.add(new ScheduleRequest(second.messageId(), new DueTime.At(secondDue), second));
        }
        for (ScheduleResult result : store.schedule(requests).get()) {
            if (result.outcome() != ScheduleResult.Outcome.SCHEDULED) {
                throw new IllegalStateException("not stored: " + result);
            }
        }
    }

    private static List<String> cursor(long score, int slot, byte[] member) {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        text.writeBytes((score + "/" + slot + ":").getBytes(StandardCharsets.US_ASCII));
        text.writeBytes(member);
        return List.of("cursor " + Base64.getUrlEncoder().withoutPadding().encodeToString(text.toByteArray()), "score " + score,
                "slot " + slot, "member hex:" + HexFormat.of().formatHex(member));
    }

    private static void write(Path file, List<String> lines, String comment) throws Exception {
        if (Files.exists(file)) {
            System.out.println("kept " + file);
            return;
        }
        Files.writeString(file, comment + "\n" + String.join("\n", lines) + "\n", StandardCharsets.US_ASCII);
        System.out.println("wrote " + file);
    }
}
