package io.github.redisdelaybridge.inbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.redisdelaybridge.message.DeadLetterReason;
import io.github.redisdelaybridge.message.MessageHeader;
import io.github.redisdelaybridge.outbound.TargetPolicy;
import io.github.redisdelaybridge.store.Keys;
import io.github.redisdelaybridge.store.StoreLimits;
import io.github.redisdelaybridge.store.ingest.ScheduleRequest;
import io.github.redisdelaybridge.store.ingest.ScheduleResult;
import io.github.redisdelaybridge.testkit.KeysPerTest;
import io.github.redisdelaybridge.testkit.StoreFaces;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A producer that names a different long target in every message, through the real validator and the real store on the
 * local Redis: the verdicts the validator remembers and the slot's names hash in Redis both stay within a stated bound,
 * every accepted message is still stored (deliverable), and no rejection repeats the whole producer text.
 */
class HostileTargetVarietyTest {

    @RegisterExtension
    static final KeysPerTest redis = new KeysPerTest("unit-hostile-targets");

    private static final int MESSAGES = 100_000;
    private static final int BATCH = 1_000;
    private static final int SLOTS = 2;
    private static final long MAX_DELAY_MS = 86_400_000;
    /**
     * Heap the validator's remembered verdicts may retain, measured after a full GC: twice the cache's own byte bound, for
     * what its accounting leaves out and for the measurement's noise.
     */
    private static final long CACHE_HEAP_BOUND = 8L << 20;
    /**
     * Redis memory of one slot's names hash: the default cap's 1 MiB of names, each held twice (the n:&lt;name&gt; field and
     * the c:&lt;code&gt; value) in the allocator's size classes, plus the hash table.
     */
    private static final long NAMES_MEMORY_BOUND_PER_SLOT = 4L << 20;
    /** A rejection's detail names the target abbreviated: far shorter than the 520 to 1024 bytes of these targets. */
    private static final int MAX_DETAIL_CHARS = 300;

    @Test
    void distinctLongTargetsInEveryMessageKeepTheCacheAndTheNamesHashBounded() throws Exception {
        DelayRequestValidator validator = new DelayRequestValidator(new DueTimeParser(MAX_DELAY_MS),
                new TargetPolicy(List.of("rabbitmq:ok*"), Set.of("kafka:delay.inbound"), Set.of("kafka", "rabbitmq")), Map.of(), 1_000_000);
        Keys keys = new Keys(redis.prefix(), SLOTS);
        StoreFaces store = StoreFaces.over(redis.connection().async(), keys, new StoreLimits(MAX_DELAY_MS, 60_000, 60_000, 1_000, 60_000));
        long heapBefore = usedHeapAfterGc();
        long started = System.nanoTime();

        Map<DeadLetterReason, Integer> rejected = new EnumMap<>(DeadLetterReason.class);
        int scheduled = 0;
        int longestDetail = 0;
        for (int from = 0; from < MESSAGES; from += BATCH) {
            List<ScheduleRequest> requests = new ArrayList<>(BATCH);
            for (int i = from; i < from + BATCH; i++) {
                ValidatedMessage validated = validator.validate(message(i, targetOf(i)));
                if (validated instanceof ValidatedMessage.Accepted accepted) {
                    requests.add(accepted.request());
                } else {
                    Rejection rejection = ((ValidatedMessage.Rejected) validated).rejection();
                    longestDetail = Math.max(longestDetail, rejection.detail().length());
                    rejected.merge(rejection.reason(), 1, Integer::sum);
                }
            }
            for (ScheduleResult result : store.ingest().schedule(requests).get(60, TimeUnit.SECONDS)) {
                assertThat(result.outcome()).isEqualTo(ScheduleResult.Outcome.SCHEDULED);
                scheduled++;
            }
        }
        long heapRetained = usedHeapAfterGc() - heapBefore;
        Reference.reachabilityFence(validator);
        long[] namesMemory = new long[SLOTS];
        for (int slot = 0; slot < SLOTS; slot++) {
            namesMemory[slot] = memoryUsage(keys.names(slot));
        }
        System.out.printf("%d messages in %d ms: %d scheduled, rejected %s; heap retained %d bytes; names hash memory %s bytes%n",
                MESSAGES, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), scheduled, rejected, heapRetained,
                java.util.Arrays.toString(namesMemory));

        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(scheduled).isEqualTo(MESSAGES / 3 + 1);
        softly.assertThat(rejected).containsEntry(DeadLetterReason.INVALID_TARGET, MESSAGES / 3)
                .containsEntry(DeadLetterReason.FORBIDDEN_TARGET, MESSAGES / 3);
        softly.assertThat(longestDetail).as("longest rejection detail (characters)").isLessThan(MAX_DETAIL_CHARS);
        softly.assertThat(heapRetained).as("heap retained by the validator's remembered verdicts").isLessThan(CACHE_HEAP_BOUND);
        for (int slot = 0; slot < SLOTS; slot++) {
            softly.assertThat(namesMemory[slot]).as("MEMORY USAGE of slot %d's names hash", slot).isLessThan(NAMES_MEMORY_BOUND_PER_SLOT);
        }
        softly.assertAll();
    }

    /** Accepted (520 bytes, the longest a target can be), forbidden (520 bytes) and invalid (1 KiB) in turn, each distinct. */
    private static String targetOf(int i) {
        return switch (i % 3) {
            case 0 -> "rabbitmq:ok" + padded(i, 253) + "/" + padded(i, 255);
            case 1 -> "rabbitmq:no" + padded(i, 253) + "/" + padded(i, 255);
            default -> "kafka:" + padded(i, 1018);
        };
    }

    /** The number, then filler up to {@code length} characters. */
    private static String padded(int i, int length) {
        StringBuilder text = new StringBuilder(length).append(i).append('.');
        while (text.length() < length) {
            text.append((char) ('a' + text.length() % 26));
        }
        return text.toString();
    }

    private static InboundMessage message(int i, String target) {
        return new InboundMessage("kafka:delay.inbound/0@" + i, "delay.inbound", "delay.inbound-0-" + i, null,
                List.of(MessageHeader.text("x-target", target), MessageHeader.text("x-delay", "3600000")), Map.of(),
                ("body " + i).getBytes(StandardCharsets.UTF_8));
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    /** MEMORY USAGE of a key, every field counted (SAMPLES 0). */
    private static long memoryUsage(String key) throws Exception {
        CommandArgs<byte[], byte[]> args = new CommandArgs<>(ByteArrayCodec.INSTANCE).add("USAGE")
                .addKey(key.getBytes(StandardCharsets.UTF_8)).add("SAMPLES").add(0);
        Long usage = redis.connection().async().dispatch(CommandType.MEMORY, new IntegerOutput<>(ByteArrayCodec.INSTANCE), args)
                .toCompletableFuture().get(30, TimeUnit.SECONDS);
        return usage == null ? 0 : usage;
    }
}
